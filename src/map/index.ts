/** The vault map: note layouts by UMAP and the JSON Canvas files Engram writes from them (the vault map, the entity graph). */
export { validateCanvas, renderCanvas, type Canvas, type CanvasNode, type CanvasEdge, type FileNode, type GroupNode, type TextNode } from './canvas.js';
export { seededRandom } from './random.js';
export { layoutVectors, layoutGraph, layoutSignalGraph, placeNear, LAYOUT_DEFAULTS, type LayoutOptions, type Neighbour } from './layout.js';
export { runMap, mapPaths, changedPaths, mapChanges, graphFingerprint, MAP_DEFAULTS, type MapOptions, type MapReport } from './map-run.js';
export { readMapState, mapStatePath, type MapState } from './map-state.js';
export { readMapNotes } from './map-notes.js';
export { besidePath, type CanvasWrite } from './write-canvas.js';
export { vaultCanvas, CANVAS_DEFAULTS } from './vault-canvas.js';
export { entityCanvas, ENTITY_CANVAS_DEFAULTS } from './entity-canvas.js';

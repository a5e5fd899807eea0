/** Attaching `engram serve` to the daemon: the attach file and the stdio relay (node built-ins only, so a relay stays small). */
export { ATTACH_FILE, RUNNING_VERSION, findDaemon, locateState, newSecret, removeAttachFile, writeAttachFile, type AttachInfo, type AttachLookup } from './attach-file.js';
export { connectDaemon, Relay, type Handover, type Hello, type RelayOptions, type Upstream } from './relay.js';

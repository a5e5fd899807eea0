/** A vault for the Librarian: filed notes in two folders, two Inbox notes (one whose name a filed note has), links of every form to the other. */
export const LIBRARIAN_VAULT: Record<string, string> = {
  'Projects/Zoo/Walrus Feeding.md': '# Walrus feeding\nThe walrus keeper feeds the walrus fish at noon by the seal pool.\n',
  'Projects/Zoo/Seal Pool.md': '# Seal pool\nThe seal pool and the walrus pool need a keeper and fish.\n',
  'Projects/Zoo/Keepers.md': '# Keepers\nEvery keeper feeds a walrus or a seal; fish come at noon.\n',
  'Projects/Zoo/Fish Order.md': '# Fish order\nOrder fish for the walrus and the seal; the keeper signs at noon.\n',
  'Projects/Zoo/Pool Cleaning.md': '# Pool cleaning\nThe keeper cleans the seal pool and the walrus pool.\n',
  'Projects/Zoo/Walrus Health.md': '# Walrus health\nThe walrus eats fish; the keeper checks the walrus at noon.\n',
  'Projects/Zoo/Seal Training.md': '# Seal training\nA keeper trains the seal with fish by the pool.\n',
  'Projects/Zoo/Rota.md': '# Rota\nKeeper rota: walrus at noon, seal pool after, fish delivery.\n',
  'Garden/Compost.md': '# Compost\nTurn the compost; the garden roses and tomato beds need it.\n',
  'Garden/Watering.md': '# Watering\nWater the garden: tomato first, roses after.\n',
  'Garden/Tomatoes.md': '# Tomatoes\nWater the tomato plants in the garden each morning.\n',
  'Garden/Roses.md': '# Roses\nPrune the roses in the garden; water the beds.\n',
  'Claude/Inbox/Walrus Plan.md': '# Walrus plan\nA keeper plan: feed the walrus fish at noon, clean the seal pool.\n',
  'Claude/Inbox/Rota.md': '# Rota draft\nNext keeper rota: walrus at noon, then the seal pool and fish.\n',
  'Home.md': [
    '# Home',
    'bare [[Walrus Plan]], qualified [[Claude/Inbox/Walrus Plan|plan]], with md [[Claude/Inbox/Walrus Plan.md#Walrus plan]]',
    'embed ![[Claude/Inbox/Walrus Plan]] and markdown [plan](Claude/Inbox/Walrus%20Plan.md)',
    '',
  ].join('\n'),
  'Claude/Sessions/2026-11-01 Zoo.md': '# Zoo session\nSee [the plan](../Inbox/Walrus%20Plan.md) and [[Inbox/Walrus Plan]].\n',
};

/** Whole words for the tiny model's vocabulary, so notes about the same things are close. */
export const LIBRARIAN_WORDS = ['walrus', 'keeper', 'seal', 'pool', 'fish', 'noon', 'garden', 'tomato', 'roses', 'water'];

// Transitional: the types and protocol emitters (rewritten in another branch) still throw
// and catch this. Delete once that branch merges.

export class Unsupported extends Error {}

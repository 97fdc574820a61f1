/** Public surface of the gamedb runtime layer. */
export {};

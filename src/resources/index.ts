/** Public surface of the resources runtime layer. */
export {};

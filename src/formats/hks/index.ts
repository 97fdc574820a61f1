/** Public surface of the hks format module. */
export {};

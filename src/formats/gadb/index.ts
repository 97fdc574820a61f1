/** Public surface of the gadb format module. */
export {};

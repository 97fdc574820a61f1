/** Public surface of the arch06 format module. */
export {};

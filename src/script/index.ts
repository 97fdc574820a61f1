/** Public surface of the script runtime layer. */
export {};

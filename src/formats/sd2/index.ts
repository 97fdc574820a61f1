/** Public surface of the sd2 format module. */
export {};

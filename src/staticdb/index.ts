/** Public surface of the staticdb runtime layer. */
export {};

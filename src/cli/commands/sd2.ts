/** `scry sd2 …` commands. */
import type { Command } from '../command.ts';

export const sd2Commands: Command[] = [];

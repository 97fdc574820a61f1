/** `scry db …` commands. */
import type { Command } from '../command.ts';

export const dbCommands: Command[] = [];

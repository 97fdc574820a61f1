/** `scry script …` commands. */
import type { Command } from '../command.ts';

export const scriptCommands: Command[] = [];

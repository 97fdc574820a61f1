/** `scry arch …` commands. */
import type { Command } from '../command.ts';

export const archCommands: Command[] = [];

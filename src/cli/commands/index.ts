/** Every CLI command, by area. Each area owns one file. */
import type { Command } from '../command.ts';
import { hashCommands } from './hash.ts';
import { dbCommands } from './db.ts';
import { dbEditCommands } from './db-edit.ts';
import { dbGenCommands } from './db-gen.ts';
import { sd2Commands } from './sd2.ts';
import { hksCommands, scriptCommands } from './script.ts';
import { scriptEngineCommands } from './script-engine.ts';
import { archCommands } from './arch.ts';
import { serveCommands } from './serve.ts';
import { simCommands } from './sim.ts';
import { scriptCompileCommands } from './script-compile.ts';
import { scriptRunCommands } from './script-run.ts';
import { scriptDecompileCommands } from './script-decompile.ts';

export const allCommands: Command[] = [...hashCommands, ...dbCommands, ...dbEditCommands, ...dbGenCommands, ...sd2Commands, ...scriptCommands, ...scriptEngineCommands, ...hksCommands, ...archCommands, ...serveCommands, ...simCommands, ...scriptCompileCommands, ...scriptRunCommands, ...scriptDecompileCommands];

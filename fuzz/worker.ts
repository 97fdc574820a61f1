/** Worker entry of the fuzz harness: loads a format's target and runs its cases (see `harness.ts`). */
import { workerData } from 'node:worker_threads';
import { runCases, type CampaignOptions, type FuzzTarget } from './harness.ts';

const data = workerData as { modulePath: string; options: Required<CampaignOptions>; start: number; end: number; stats: Float64Array };
const mod = (await import(data.modulePath)) as { target: FuzzTarget };
await runCases(mod.target, data.options, data.start, data.end, data.stats);

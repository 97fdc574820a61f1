/**
 * What the headless engine assumes beyond what the seeds measured, in one place. Every rule the engine applies that
 * the seeds (`002` scripting, `004` engine core) do not state is one of these, referred to by id where it is used,
 * so a trace or a report can say which guess a result rests on.
 */
export interface EngineHypothesis {
  readonly id: string;
  readonly statement: string;
  /** `verified`: measured in the seed; `inferred`: follows from the seed or the shipped source; `open`: a guess. */
  readonly status: 'verified' | 'inferred' | 'open';
}

export const ENGINE_HYPOTHESES = {
  clockUnnamed: {
    id: 'H-CLOCK-UNNAMED',
    statement:
      'The three unnamed clocks (slots 0x2702560, 0x2702568, 0x2702580) were not measured: they are taken to stop while paused ("every clock but the real-time one stops"), to clamp to 1-100 ms like the six clamped clocks, and not to be slow-motion channels.',
    status: 'open',
  },
  clockUnboundedMin: {
    id: 'H-CLOCK-MIN-UNBOUNDED',
    statement:
      'The seed gives the unscaled and real-time clocks no upper bound (+0x3C = 0xFFFFFFFF) but does not give their lower bound (+0x38): taken as 0 ms (the real-time clock read steps of 3-4 ms, which either value allows).',
    status: 'open',
  },
  clockStepRounding: {
    id: 'H-CLOCK-STEP-ROUNDING',
    statement:
      'The u32 step is the effective rate (numerator / denominator x scale, kept as f32 at +0x34) times the real elapsed milliseconds, rounded down, plus the pending extra; the f32 seconds are the u32 step / 1000 and the f64 time adds the same. The seed states the rule, not its rounding.',
    status: 'open',
  },
  clockUpdateOrder: {
    id: 'H-CLOCK-ORDER',
    statement: 'The clocks are updated once per frame in slot order (0x2702548 first, the world clock last); the seed does not give the order.',
    status: 'open',
  },
  slowMotionScale: {
    id: 'H-SLOWMO-SCALE',
    statement:
      'Slow motion writes the scale (+0x30) of the channel clocks it names (by default all five: world, player, combat companion, world UI, presentations); the rate numerator / denominator are left alone.',
    status: 'inferred',
  },
  dbKindRule: {
    id: 'H-DBKIND-RULE',
    statement:
      'A DB<Kind> global the seed does not place reads the category whose record type name (+0x04) without dots is Kind, else whose name without "/" is Kind, else whose last path segment is Kind, else the same with a plural "s" (case-insensitive); for a kind the seed gives a record count for (DBSlowMo 332, DBAlignments 52), the one category whose name contains Kind and holds that many records.',
    status: 'open',
  },
  stackLimit: {
    id: 'H-STACK-LIMIT',
    statement:
      'The running-script stack holds 16 pushed entries above the static depth-0 entry; a 17th push is reported as a fault (the engine would write past its array) and not made. The seed gives "at most 16" without saying whether the static entry is one of them.',
    status: 'open',
  },
  nativeClasses: {
    id: 'H-NATIVE-CLASSES',
    statement:
      'Every world object class the scripts use derives directly from GameBase and has its methods (SetHidden, GetName, __typeof …); argument shapes not named by the seed are those the shipped source passes.',
    status: 'inferred',
  },
} as const satisfies Record<string, EngineHypothesis>;

/** Every engine hypothesis, for listings (`scry script run --json` summary, docs). */
export function engineHypotheses(): EngineHypothesis[] {
  return Object.values(ENGINE_HYPOTHESES);
}

export * from './p919.ts';
export * from './calibrate.ts';

/** Public surface of the archivepatchloosefiles (archive path index) module. */
export * from './apl.ts';

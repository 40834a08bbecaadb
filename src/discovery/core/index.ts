// Public surface of the editor-free discovery core.
export * from './diagnostic';
export * from './lineIndex';
export * from './parse';
export * from './detect';
export * from './jsonTree';
export * from './model';
export * from './analyze';
export { RULES } from './rules';
export * from './schema';
export * from './edits';
export * from './fixes';
export * from './position';
export * from './navigation';
export * from './hover';
export * from './completion';
export * from './symbols';
export * from './preview';
export * from './analysisWorker';

// Public surface of the revision diff (editor-free; the CLI and the Compare With… adapter use it).
export { DIFF_CODES, type DiffCode, type DiffCodeInfo, type DiffSeverity } from './codes';
export { DiffInputError, diffDiscovery } from './diff';
export { toPointer, type DiffChange, type DiffPlace } from './report';

// The URL policy lives in shared/ so the window judges a link by the same rules the host does.
export * from '../../../shared/urlPolicy.ts';

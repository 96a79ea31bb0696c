// The import-cycle check must fail here: a.ts and b.ts import each other, one of them only a type.
import type { B } from './b';

export interface A {
  b?: B;
}
export const a = 'a';

import { a } from './a';

export interface B {
  name: typeof a;
}

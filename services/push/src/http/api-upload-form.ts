import { type CreateFeatures, mayCreate } from '../domain/create-policy';
import type { UploadForm } from '../uploads/form';
import { createRefusal } from './error-map';
import { actorOf } from './principal';
import { need } from './context-guard';

/**
 * The API's form: files in `push[files][]` (repeated; `push[files]` is accepted too), the other
 * fields as `push[…]`; who may store files is the create policy's answer for the token's principal.
 */
export function apiUploadForm(features: CreateFeatures): UploadForm {
  return {
    fileFields: ['push[files][]', 'push[files]'],
    payloadField: 'push[payload]',
    admitFiles(_req, res) {
      const allowed = mayCreate(actorOf(need(res, 'principal')), 'file', features);
      return allowed.ok ? undefined : createRefusal(allowed);
    },
  };
}

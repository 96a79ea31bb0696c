import express, { type Response } from 'express';
import request from 'supertest';
import { MissingRequestContext, need, responseOf } from './context-guard';

const resWith = (locals: Partial<Express.Locals>) => ({ locals }) as unknown as Response;

describe('need', () => {
  it('gives what an earlier step provided', () => {
    expect(need(resWith({ idempotencyKey: 'k-1' }), 'idempotencyKey')).toBe('k-1');
  });

  it('gives null: a step that ran and found nothing (an anonymous caller, no key sent)', () => {
    expect(need(resWith({ principal: null }), 'principal')).toBeNull();
    expect(need(resWith({ idempotencyKey: null }), 'idempotencyKey')).toBeNull();
  });

  it('throws a MissingRequestContext naming the key when the step did not run', () => {
    let thrown: unknown;
    try {
      need(resWith({}), 'principal');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(MissingRequestContext);
    expect((thrown as MissingRequestContext).key).toBe('principal');
    expect((thrown as Error).message).toMatch(
      /^res\.locals\.principal is not set: the step that provides it/,
    );
  });

  it('answers 500 in a chain that lost the step (not 200 with an anonymous caller)', async () => {
    const errors: unknown[] = [];
    const app = express()
      .get('/', (_req, res) => {
        res.json({ owner: need(res, 'principal')?.id ?? null });
      })
      .use(((err, _req, res, _next) => {
        errors.push(err);
        res.status(500).json({ error: 'internal' });
      }) as express.ErrorRequestHandler);
    const res = await request(app).get('/');
    expect(res.status).toBe(500);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(MissingRequestContext);
  });
});

describe('responseOf', () => {
  it("gives the request's response, which Express links to it", async () => {
    const app = express().get('/', (req, res) => {
      res.json({ same: responseOf(req) === res });
    });
    expect((await request(app).get('/')).body).toEqual({ same: true });
  });
});

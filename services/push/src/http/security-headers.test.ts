import express from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { securityHeaders } from './security-headers';

const appWith = (middleware: express.RequestHandler) =>
  express()
    .use(middleware)
    .get('/', (_req, res) => {
      res.json({ ok: true });
    });

describe('securityHeaders', () => {
  it('sets exactly the headers helmet() sets', async () => {
    const [ours, theirs] = await Promise.all([
      request(appWith(securityHeaders())).get('/'),
      request(appWith(helmet())).get('/'),
    ]);
    const strip = (h: Record<string, unknown>) => {
      const { date: _date, ...rest } = h;
      return rest;
    };
    expect(strip(ours.headers)).toEqual(strip(theirs.headers));
    expect(ours.headers['x-powered-by']).toBeUndefined();
    expect(ours.headers['content-security-policy']).toContain("default-src 'self'");
  });
});

import express from 'express';

// Ceiling for GET /version: a bare Express 5 JSON route.
const app = express();
app.get('/json', (_req, res) => {
  res.json({ hello: 'world', nested: { a: 1, b: [true, false] } });
});
app.listen(Number(process.env.PORT), '127.0.0.1');

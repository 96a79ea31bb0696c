import { type TestAuth, startAuth } from '../testing';

let auth: TestAuth;
beforeAll(async () => {
  auth = await startAuth();
});
afterAll(() => auth.stop());

describe('secret-push-auth clients create-web', () => {
  it('registers a first-party sign-in client and prints its id and secret once', async () => {
    const created = await auth.cli(
      'clients',
      'create-web',
      '--name',
      'Push web app',
      '--redirect-uri',
      'https://push.example/auth/callback',
      '--redirect-uri',
      'http://localhost:3000/auth/callback',
      '--post-logout-redirect-uri',
      'https://push.example/',
      '--json',
    );
    expect(created.code).toBe(0);
    const client = JSON.parse(created.out);
    expect(client).toEqual({
      client_id: expect.stringMatching(/^spc_/),
      client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      scope: 'openid email',
      redirect_uris: ['https://push.example/auth/callback', 'http://localhost:3000/auth/callback'],
      post_logout_redirect_uris: ['https://push.example/'],
    });

    const row = await auth.db
      .selectFrom('oidc_payload')
      .select('payload')
      .where('model', '=', 'Client')
      .where('id', '=', client.client_id)
      .executeTakeFirstOrThrow();
    expect(row.payload).toMatchObject({
      application_type: 'web',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: 'openid email',
      'urn:secret-push:first_party': true,
    });
    expect(JSON.stringify(row.payload)).not.toContain(client.client_secret);

    const listed = await auth.cli('clients', 'list', '--json');
    expect(JSON.parse(listed.out)).toContainEqual(
      expect.objectContaining({
        client_id: client.client_id,
        name: 'Push web app',
        web: true,
        resource_server: false,
        redirect_uris: ['https://push.example/auth/callback', 'http://localhost:3000/auth/callback'],
      }),
    );
    const text = await auth.cli('clients', 'list');
    expect(text.out).toContain(`${client.client_id}\tPush web app\t(web) https://push.example/auth/callback`);

    const human = await auth.cli(
      'clients',
      'create-web',
      '--name',
      'x',
      '--redirect-uri',
      'https://a.example/cb',
    );
    expect(human.out).toMatch(/^client_id: +spc_/m);
    expect(human.out).toContain('redirect_uri:  https://a.example/cb');
    expect(human.out).toContain('The secret is shown only now');
  });

  it.each([
    [['--name', 'x'], /needs --name and at least one --redirect-uri/],
    [['--redirect-uri', 'https://a.example/cb'], /needs --name/],
    [['--name', 'x', '--redirect-uri', 'http://push.example/cb'], /must be https \(http only for localhost/],
    [['--name', 'x', '--redirect-uri', 'https://a.example/cb#frag'], /must not have a fragment/],
    [['--name', 'x', '--redirect-uri', 'push.example/cb'], /must be an absolute http\(s\) URL/],
    [['--name', 'x', '--redirect-uri', 'https://u:p@a.example/cb'], /must not hold credentials/],
    [
      [
        '--name',
        'x',
        '--redirect-uri',
        'https://a.example/cb',
        '--post-logout-redirect-uri',
        'http://a.example/',
      ],
      /--post-logout-redirect-uri http:\/\/a.example\/: must be https/,
    ],
  ])('refuses %j (exit 1, saying why)', async (args, message) => {
    const res = await auth.cli('clients', 'create-web', ...args);
    expect(res.code).toBe(1);
    expect(res.err).toMatch(message);
  });
});

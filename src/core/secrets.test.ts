// Redaction of URL credentials: the user-info of any URL in a text, and the registered password elsewhere.
import { describe, expect, it } from 'vitest';
import { InputError, userFacingMessage } from './errors.ts';
import { endpointAuth, splitUrlCredentials } from './http-url.ts';
import { redactSecrets, redactUrlCredentials, registerCredentialsIn } from './secrets.ts';

describe('URL credentials', () => {
  it('redacts the user-info of every URL, and only that', () => {
    expect(redactUrlCredentials('GET http://u:p4ss@proxy:8080/v1/models failed')).toBe(
      'GET http://[redacted]@proxy:8080/v1/models failed',
    );
    expect(redactUrlCredentials('{"baseURL":"https://tok@h/v1","mail":"a@b.c"}')).toBe(
      '{"baseURL":"https://[redacted]@h/v1","mail":"a@b.c"}',
    );
    // An unencoded @ in the password: the host is after the last @ of the authority.
    expect(redactUrlCredentials('http://u:p@ss@host/x')).toBe('http://[redacted]@host/x');
    expect(redactUrlCredentials('see http://host/a and write to me@example.org')).toBe(
      'see http://host/a and write to me@example.org',
    );
    expect(redactUrlCredentials('代理 http://用户:密码很长的口令@主机/v1 失败')).toBe(
      '代理 http://[redacted]@主机/v1 失败',
    );
  });

  it('registers the password of a config value so an echo outside the URL is redacted, in every one-line error', () => {
    registerCredentialsIn({ llm: { roles: { reader: { baseURL: 'http://alice:s3cr%2Ft-pw@proxy/v1' } } } });
    expect(redactSecrets('the proxy said: bad password s3cr/t-pw')).toBe('the proxy said: bad password [redacted]');
    expect(redactSecrets(`Authorization: Basic ${Buffer.from('alice:s3cr/t-pw').toString('base64')}`)).toBe(
      'Authorization: Basic [redacted]',
    );
    expect(userFacingMessage(new InputError('cannot reach http://alice:s3cr%2Ft-pw@proxy/v1', 'exp.yaml'))).toBe(
      'exp.yaml: cannot reach http://[redacted]@proxy/v1',
    );
  });

  it('moves credentials out of the URL into a Basic header, which wins over a key', () => {
    expect(splitUrlCredentials('http://u:p%40ss@h:8/v1')).toEqual({
      url: 'http://h:8/v1',
      authorization: `Basic ${Buffer.from('u:p@ss').toString('base64')}`,
    });
    expect(splitUrlCredentials('http://h/v1')).toEqual({ url: 'http://h/v1' });
    expect(splitUrlCredentials('https://u:p@h')).toMatchObject({ url: 'https://h' });
    expect(endpointAuth('http://u:pw@h/v1', 'sk-key')).toEqual({
      url: 'http://h/v1',
      headers: { authorization: `Basic ${Buffer.from('u:pw').toString('base64')}` },
    });
    expect(endpointAuth('http://h/v1', 'sk-key')).toEqual({
      url: 'http://h/v1',
      headers: { authorization: 'Bearer sk-key' },
    });
  });
});

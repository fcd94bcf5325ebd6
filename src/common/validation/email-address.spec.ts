import addressparser from 'nodemailer/lib/addressparser';
import { isPlainEmailAddress, plainEmailAddress } from './email-address';

describe('plainEmailAddress', () => {
  it.each([
    ['a@b.co', 'a@b.co'],
    ['first.last+tag@sub.example.org', 'first.last+tag@sub.example.org'],
    [' x@y.io ', 'x@y.io'],
    ['Person@Example.COM', 'Person@Example.COM'],
    ["o'brien@example.ie", "o'brien@example.ie"],
    ['user@xn--bcher-kva.de', 'user@xn--bcher-kva.de'],
    ['jürgen@bücher.de', 'jürgen@bücher.de'],
  ])('accepts %j as %j', (input, address) => {
    expect(plainEmailAddress(input)).toBe(address);
    expect(isPlainEmailAddress(input)).toBe(true);
  });

  it.each([
    '',
    '   ',
    'ok_abc',
    'a@b',
    'a b@c.d',
    '@b.co',
    'a@.',
    'a@b.c.',
    'a@@b.co',
    `${'x'.repeat(250)}@b.co`,
    // Display names, lists and groups: nodemailer would read other or several recipients.
    'Boss <a@x.com>',
    '<a@x.com>',
    'a@x.com>',
    'a@x.com<b@y.com>',
    'a,b@c.d',
    'a;b@c.d',
    'a@x.com,b@y.com',
    'a@x.com, b@y.com',
    'a@x.com;',
    'team: a@x.com, b@y.com;',
    'team:a@x.com;',
    'a@b.c:d',
    // Comments and quoting.
    'a@x.com (boss)',
    'a@x.com(boss)',
    '(boss)a@x.com',
    '"a b"@x.com',
    '"a"@x.com',
    'a\\b@x.com',
    'a@[127.0.0.1]',
    // Line breaks, control and invisible characters inside.
    'a@x.com\nBcc: b@y.com',
    'a@x.com\r\nBcc: b@y.com',
    'a@x\n.com',
    'a\t@x.com',
    'a@x.com\u0000',
    'a\u0000@x.com',
    'a@x.com\u0007b',
    'a\u007f@x.com',
    'a\u0085@x.com',
    'a\u200b@x.com',
    'a@x\u202e.com',
    'a\u2028@x.com',
    'a\ud800@x.com',
  ])('refuses %j', (input) => {
    expect(plainEmailAddress(input)).toBeNull();
    expect(isPlainEmailAddress(input)).toBe(false);
  });

  it('accepts exactly what nodemailer reads as one mailbox equal to the input', () => {
    for (const input of ['a@b.co', 'first.last+tag@sub.example.org', 'jürgen@bücher.de']) {
      expect(addressparser(input)).toEqual([{ name: '', address: input }]);
    }
    // The reason for the rule: each of these is, to nodemailer, something else than it looks.
    expect(addressparser('a,b@c.d')).toHaveLength(2);
    expect(addressparser('a@x.com (boss)')).toEqual([{ name: 'boss', address: 'a@x.com' }]);
    expect(addressparser('a@x.com\u0000')).toEqual([{ name: '', address: 'a@x.com' }]);
  });
});

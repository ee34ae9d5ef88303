import { describe, expect, it } from 'vitest';
import { appPublisherDomain, registrableDomain, siteName } from './host.js';

describe('registrableDomain', () => {
  it.each([
    ['facebook.com', 'facebook.com', 'facebook'],
    ['lm.facebook.com', 'facebook.com', 'facebook'],
    ['join.skype.co.uk', 'skype.co.uk', 'skype'], // co.uk is a public suffix, so skype.co.uk is the site
    ['news.google.com.br', 'google.com.br', 'google'],
    ['zalo.me', 'zalo.me', 'zalo'],
    ['t.co.uk', 't.co.uk', 't'], // not t.co: its suffix is co.uk
    ['statics.teams.cdn.office.net', 'office.net', 'office'],
    // the list's private section is left out: a blog on blogspot.com is part of blogspot.com
    ['someone.blogspot.com', 'blogspot.com', 'blogspot'],
  ])('%s -> %s', (host, domain, name) => {
    expect(registrableDomain(host)).toEqual({ domain, name });
  });

  it.each([
    'com', // a suffix alone
    'co.uk',
    'facebook.com.evil.test', // test is no suffix of the list
    'com.slack', // an Android package: slack is no top-level domain
    'localhost',
    '192.168.1.10',
  ])('%s -> null', (host) => {
    expect(registrableDomain(host)).toBeNull();
  });
});

describe('appPublisherDomain', () => {
  it.each([
    ['com.facebook.katana', 'facebook.com'],
    ['com.linkedin.android', 'linkedin.com'],
    ['org.telegram.messenger', 'telegram.org'],
    ['com.slack', 'slack.com'],
    ['tv.twitch.android.app', 'twitch.tv'],
    ['jp.naver.line.android', 'naver.jp'], // the rule reads the publisher; app-sources.ts knows it opens LINE
  ])('%s -> %s', (id, domain) => {
    expect(appPublisherDomain(id)).toBe(domain);
  });

  it.each([
    'facebook.com', // facebook is no top-level domain: a host, not a package
    'lm.facebook.com',
    'facebook.com.evil.test',
    'android', // one label
    'com.', // no second label
    'zz.example', // zz is no top-level domain
  ])('%s -> null', (id) => {
    expect(appPublisherDomain(id)).toBeNull();
  });
});

describe('siteName', () => {
  it.each([
    ['news.google.co.uk', 'google'],
    ['lm.facebook.com', 'facebook'],
    ['com.google.android.googlequicksearchbox', 'google'], // a package: its publisher's
    ['com.slack', 'slack'],
    ['facebook.com.evil.test', null],
    ['localhost', null],
  ])('%s -> %s', (host, name) => {
    expect(siteName(host)).toBe(name);
  });
});

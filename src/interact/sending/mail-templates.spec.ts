import {
  filesIn,
  loadTemplateFolder,
  unusedTemplates,
} from '../../common/templates/template-folder';
import { levelInWordsIn, translator } from '../../common/i18n/catalogue';
import { LOCALES } from '../../common/i18n/locales';
import {
  MAIL_HTML_TEMPLATES,
  MAIL_TEMPLATE_DIR,
  MAIL_TEXT_TEMPLATES,
  raiseTime,
  renderMail,
  type MailModel,
} from './mail-templates';

describe('the mail templates (templates/)', () => {
  it('has a text and an HTML template for every mail, and every file in the folder is used', () => {
    for (const entries of [MAIL_TEXT_TEMPLATES, MAIL_HTML_TEMPLATES]) {
      expect(() =>
        loadTemplateFolder(MAIL_TEMPLATE_DIR, entries, { autoEscape: true }),
      ).not.toThrow();
    }
    const entries = [...MAIL_TEXT_TEMPLATES, ...MAIL_HTML_TEMPLATES];
    expect(unusedTemplates(MAIL_TEMPLATE_DIR, entries)).toEqual([]);
    expect(filesIn(MAIL_TEMPLATE_DIR)).toHaveLength(entries.length + 1); // + the HTML layout
  });

  const model: MailModel = {
    type: 'checkinReminder',
    locale: 'en',
    enterpriseName: 'Acme & Co',
    groupName: 'R&D <night>',
    operatorName: 'Wellbeing Services Ltd',
    privacyNoticeUrl: 'https://wellbeing.example/privacy',
    settingsUrl: 'https://checkin.example.com/participant/settings?token=a&b',
    unsubscribeUrl: 'https://checkin.example.com/participant/unsubscribe?token=u',
    checkinUrl: 'https://intranet.example/checkin',
    requestedLevel: 0,
    currentLevel: 0,
    notice: null,
  };

  it('escapes values in the HTML part only, and ends the HTML part with the document', () => {
    const mail = renderMail(model);
    expect(mail.text).toContain('check-in with R&D <night> at Acme & Co.\n');
    expect(mail.text).toContain(
      'settings: https://checkin.example.com/participant/settings?token=a&b\n',
    );
    expect(mail.html).toContain('R&amp;D &lt;night&gt; at Acme &amp; Co.');
    expect(mail.html).toContain(
      'href="https://checkin.example.com/participant/settings?token=a&amp;b"',
    );
    expect(mail.html).toMatch(
      /^<!doctype html>\n<html lang="en" dir="ltr"><body [^>]*>\n\n<p>Hello,/,
    );
    expect(mail.html).toMatch(/Privacy notice<\/a><\/p>\n<\/body><\/html>$/);
  });

  it('names the enterprise and the group, says why it was sent, who runs the service', () => {
    expect(renderMail(model).text).toBe(
      [
        'Hello,',
        '',
        'It is time for your wellbeing check-in with R&D <night> at Acme & Co.',
        '',
        'Start it here: https://intranet.example/checkin',
        '',
        'You receive this email because Acme & Co invited you to check-ins with R&D <night> and your check-in reminders are on.',
        'Your privacy and email settings: https://checkin.example.com/participant/settings?token=a&b',
        'Stop these reminders: https://checkin.example.com/participant/unsubscribe?token=u',
        '',
        'This service is run by Wellbeing Services Ltd for Acme & Co.',
        'Privacy notice: https://wellbeing.example/privacy',
        '',
      ].join('\n'),
    );
    const bare = renderMail({
      ...model,
      operatorName: null,
      privacyNoticeUrl: null,
      checkinUrl: null,
    });
    expect(bare.text).not.toContain('run by');
    expect(bare.text).not.toContain('Privacy notice');
    expect(bare.text).not.toContain('Start it here');
    expect(bare.html).not.toContain('Privacy notice');
  });

  it('asks for a review without ever saying "raise", and links to the settings page', () => {
    const mail = renderMail({
      ...model,
      type: 'privacyRequest',
      requestedLevel: 4,
      currentLevel: 1,
    });
    expect(mail.subject).toBe('Acme & Co asks you to review your privacy settings');
    for (const part of [mail.subject, mail.text, mail.html])
      expect(part).not.toMatch(/rais|increas/i);
    expect(mail.text).toContain(
      'They would like to see level 4: all of level 3, and the transcript of your check-in conversation.',
    );
    expect(mail.text).toContain('You share level 1 now: your MHCI score');
    expect(mail.text).toContain('The choice is yours.');
    expect(mail.text).toContain(
      'Review your settings here: https://checkin.example.com/participant/settings?token=a&b',
    );
    expect(mail.html).toMatch(
      /<a href="https:\/\/checkin\.example\.com\/participant\/settings\?token=a&amp;b"[^>]*>Review my privacy settings<\/a>/,
    );
  });

  it('is in the participant’s language, right to left in Arabic', () => {
    const german = renderMail({ ...model, locale: 'de' });
    expect(german.subject).not.toBe(renderMail(model).subject);
    expect(german.subject).toContain('R&D <night>');
    expect(german.html).toMatch(/^<!doctype html>\n<html lang="de" dir="ltr">/);
    const arabic = renderMail({
      ...model,
      locale: 'ar',
      type: 'privacyNotice',
      notice: [{ from: 1, to: 3, at: '2026-02-10T09:42:13.000Z' }],
    });
    expect(arabic.html).toMatch(/^<!doctype html>\n<html lang="ar" dir="rtl"><body dir="rtl"/);
    expect(arabic.text).toContain('Acme & Co');
  });

  describe('the notice of a raise', () => {
    const notice = { ...model, type: 'privacyNotice' as const, unsubscribeUrl: null };
    const first = { from: 0, to: 1, at: '2026-02-10T09:42:13.000Z' };
    const second = { from: 1, to: 5, at: '2026-02-10T09:50:00.000Z' };

    it('says when a raise was made in the participant’s language, in UTC', () => {
      expect(raiseTime('en', first.at)).toMatch(/^February 10, 2026 at 09:42\sAM UTC$/);
      expect(raiseTime('de', first.at)).toBe('10. Februar 2026 um 09:42 UTC');
      expect(raiseTime('fr', '2026-12-31T23:59:59.999Z')).toBe('31 décembre 2026 à 23:59 UTC');
    });

    it('describes level 5 from her words only where the declaration turns voice and face off', () => {
      const raise = { from: 1, to: 5, at: first.at };
      const usual = renderMail({ ...notice, notice: [raise] }).text;
      const wordsOnly = renderMail({ ...notice, notice: [raise], biometric: false }).text;
      expect(usual).toContain(`Now: ${levelInWordsIn('en', 5)}`);
      expect(usual).toMatch(/voice and video/);
      expect(wordsOnly).toContain(`Now: ${levelInWordsIn('en', 5, false)}`);
      expect(wordsOnly).not.toMatch(/voice|video/);
    });

    it('one raise: the change, the levels before and after in words, when; the link to lower it', () => {
      const mail = renderMail({ ...notice, notice: [first] });
      expect(mail.subject).toBe('Your privacy level with R&D <night> was raised');
      expect(mail.text).toBe(
        [
          'Hello,',
          '',
          'Your privacy level with R&D <night> at Acme & Co was raised from level 0 to level 1.',
          `Before: ${levelInWordsIn('en', 0)}`,
          `Now: ${levelInWordsIn('en', 1)}`,
          `When: ${raiseTime('en', first.at)}`,
          '',
          'If you did not make this change, or have changed your mind, you can lower it again on your settings page.',
          'Lower it here: https://checkin.example.com/participant/settings?token=a&b',
          '',
          'This is a security notice: it is sent whenever your level rises, whatever your email settings.',
          '',
          'This service is run by Wellbeing Services Ltd for Acme & Co.',
          'Privacy notice: https://wellbeing.example/privacy',
          '',
        ].join('\n'),
      );
      expect(mail.html).toContain(
        `<p>Before: ${levelInWordsIn('en', 0)}<br>Now: ${levelInWordsIn('en', 1)}<br>When: ${raiseTime('en', first.at)}</p>`,
      );
      expect(mail.html).toMatch(
        /<a href="https:\/\/checkin\.example\.com\/participant\/settings\?token=a&amp;b"[^>]*>Lower my privacy level<\/a>/,
      );
    });

    it('several raises: one mail lists each, in the order made, with its levels in words and when', () => {
      const mail = renderMail({ ...notice, notice: [first, second] });
      expect(mail.subject).toBe('Your privacy level with R&D <night> was raised');
      expect(mail.text).toContain(
        [
          'Your privacy level with R&D <night> at Acme & Co was raised 2 times:',
          '',
          '1. From level 0 to level 1',
          `Before: ${levelInWordsIn('en', 0)}`,
          `Now: ${levelInWordsIn('en', 1)}`,
          `When: ${raiseTime('en', first.at)}`,
          '',
          '2. From level 1 to level 5',
          `Before: ${levelInWordsIn('en', 1)}`,
          `Now: ${levelInWordsIn('en', 5)}`,
          `When: ${raiseTime('en', second.at)}`,
          '',
          'If you did not make these changes, or have changed your mind, you can lower it again on your settings page.',
          'Lower it here: https://checkin.example.com/participant/settings?token=a&b',
          '',
        ].join('\n'),
      );
      expect(mail.html).toContain(
        '<p>Your privacy level with R&amp;D &lt;night&gt; at Acme &amp; Co was raised 2 times:</p>\n' +
          `<p>1. From level 0 to level 1<br>Before: ${levelInWordsIn('en', 0)}<br>Now: ${levelInWordsIn('en', 1)}<br>When: ${raiseTime('en', first.at)}</p>\n` +
          `<p>2. From level 1 to level 5<br>Before: ${levelInWordsIn('en', 1)}<br>Now: ${levelInWordsIn('en', 5)}<br>When: ${raiseTime('en', second.at)}</p>\n`,
      );
      expect(mail.html).toContain('>Lower my privacy level</a>');
    });

    it.each(LOCALES)(
      'in %s: names the group and lists every raise (levels in words, when), with the link to lower it',
      (locale) => {
        const t = translator(locale);
        const mail = renderMail({
          ...notice,
          locale,
          notice: [first, second, { ...first, from: 2, to: 4 }],
        });
        const [step1, step3] = [
          t('mailNoticeStep', { number: 1, from: 0, to: 1 }),
          t('mailNoticeStep', { number: 3, from: 2, to: 4 }),
        ];
        for (const part of [
          mail.text,
          mail.html.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'),
        ]) {
          expect(part).toContain(
            t('mailNoticeTextMany', {
              groupName: 'R&D <night>',
              enterpriseName: 'Acme & Co',
              count: 3,
            }),
          );
          expect(part.indexOf(step1)).toBeLessThan(part.indexOf(step3));
          for (const level of [0, 1, 2, 4, 5])
            expect(part).toContain(levelInWordsIn(locale, level));
          expect(part).toContain(t('mailNoticeWhen', { at: raiseTime(locale, second.at) }));
          expect(part).toContain(t('mailNoticeUndoMany'));
        }
        expect(mail.subject).toContain('R&D <night>');
        expect(mail.text).toContain(t('mailNoticeUndoAt', { url: notice.settingsUrl }));
        expect(mail.html).toContain(`>${t('mailNoticeUndoLink')}</a>`);
      },
    );
  });
});

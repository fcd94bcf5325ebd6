import {
  filesIn,
  loadTemplateFolder,
  unusedTemplates,
} from '../../common/templates/template-folder';
import {
  MAIL_HTML_TEMPLATES,
  MAIL_TEMPLATE_DIR,
  MAIL_TEXT_TEMPLATES,
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
      notice: { from: 1, to: 3 },
    });
    expect(arabic.html).toMatch(/^<!doctype html>\n<html lang="ar" dir="rtl"><body dir="rtl"/);
    expect(arabic.text).toContain('Acme & Co');
  });
});

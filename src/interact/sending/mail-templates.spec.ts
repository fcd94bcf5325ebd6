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

  it('escapes values in the HTML part only, and ends the HTML part with the document', () => {
    const model: MailModel = {
      type: 'checkinReminder',
      groupName: 'R&D <night>',
      settingsUrl: 'https://checkin.example.com/participant/settings?token=a&b',
      unsubscribeUrl: 'https://checkin.example.com/participant/unsubscribe?token=u',
      checkinUrl: null,
      requestedLevel: 0,
      currentLevel: 0,
      notice: null,
    };
    const mail = renderMail(model);
    expect(mail.text).toContain('check-in with R&D <night>.\n');
    expect(mail.text).toContain(
      'settings: https://checkin.example.com/participant/settings?token=a&b\n',
    );
    expect(mail.html).toContain('<strong>R&amp;D &lt;night&gt;</strong>');
    expect(mail.html).toContain(
      'href="https://checkin.example.com/participant/settings?token=a&amp;b"',
    );
    expect(mail.html).toMatch(/^<!doctype html>\n<html lang="en"><body [^>]*>\n\n<p>It is time/);
    expect(mail.html).toMatch(/Unsubscribe from these emails<\/a><\/p>\n<\/body><\/html>$/);
  });
});

/**
 * The mails (DESIGN §10): a text and an HTML part each, rendered with eta (HTML auto-escaped).
 * Every mail names the group, links to the participant's settings page and to a one-click
 * unsubscribe for its type.
 */
import { Eta } from 'eta';
import { levelInWords } from '../../common/privacy-model';
import type { MailType } from '../interact.errors';

export interface MailModel {
  type: MailType;
  groupName: string;
  settingsUrl: string;
  /** The one-click unsubscribe of the type; null for a notice (not subject to preferences). */
  unsubscribeUrl: string | null;
  checkinUrl: string | null;
  requestedLevel: number;
  currentLevel: number;
  /** A notice's change: from which level to which. */
  notice: { from: number; to: number } | null;
}

const TEXT = {
  checkinReminder: `Hello,

It is time for your wellbeing check-in with <%= it.groupName %>.
<% if (it.checkinUrl) { %>
Start it here: <%= it.checkinUrl %>
<% } %>
Your privacy and email settings: <%= it.settingsUrl %>
Stop these reminders: <%= it.unsubscribeUrl %>
`,
  privacyRequest: `Hello,

<%= it.groupName %> asks you to review your privacy settings. They would like to see level <%= it.requestedLevel %>: <%= it.requestedWords %>
You share level <%= it.currentLevel %> now: <%= it.currentWords %>

You do not have to change anything. Review your settings here: <%= it.settingsUrl %>

Stop privacy review requests: <%= it.unsubscribeUrl %>
`,
  privacyNotice: `Hello,

Your privacy level with <%= it.groupName %> was raised from level <%= it.notice.from %> to level <%= it.notice.to %>.
Before: <%= it.fromWords %>
Now: <%= it.toWords %>

If you did not make this change, or have changed your mind, lower it again here: <%= it.settingsUrl %>

This is a security notice: it is sent whenever your level rises, whatever your email settings.
`,
};

const HTML = `<!doctype html>
<html lang="en"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1f2328">
<% if (it.type === 'privacyNotice') { %>
<p>Your privacy level with <strong><%= it.groupName %></strong> was raised from level <%= it.notice.from %> to level <%= it.notice.to %>.</p>
<p>Before: <%= it.fromWords %><br>Now: <%= it.toWords %></p>
<p>If you did not make this change, or have changed your mind, <a href="<%= it.settingsUrl %>">lower it again</a>.</p>
<p style="font-size:0.9em;color:#59636e">This is a security notice: it is sent whenever your level rises, whatever your email settings.</p>
<% } else if (it.type === 'checkinReminder') { %>
<p>It is time for your wellbeing check-in with <strong><%= it.groupName %></strong>.</p>
<% if (it.checkinUrl) { %><p><a href="<%= it.checkinUrl %>">Start my check-in</a></p><% } %>
<% } else { %>
<p><strong><%= it.groupName %></strong> asks you to review your privacy settings. They would like to see level <%= it.requestedLevel %>: <%= it.requestedWords %></p>
<p>You share level <%= it.currentLevel %> now: <%= it.currentWords %> You do not have to change anything.</p>
<p><a href="<%= it.settingsUrl %>">Review my privacy settings</a></p>
<% } %>
<% if (it.unsubscribeUrl) { %><p style="font-size:0.9em;color:#59636e"><a href="<%= it.settingsUrl %>">Privacy and email settings</a> · <a href="<%= it.unsubscribeUrl %>">Unsubscribe from these emails</a></p><% } %>
</body></html>`;

const SUBJECTS: Record<MailType, (groupName: string) => string> = {
  checkinReminder: (groupName) => `Time for your check-in with ${groupName}`,
  privacyRequest: (groupName) => `${groupName} asks you to review your privacy settings`,
  privacyNotice: (groupName) => `Your privacy level with ${groupName} was raised`,
};

const htmlEta = new Eta({ autoEscape: true, autoTrim: false });
const textEta = new Eta({ autoEscape: false, autoTrim: false });

export function renderMail(model: MailModel): { subject: string; text: string; html: string } {
  const data = {
    ...model,
    requestedWords: levelInWords(model.requestedLevel),
    currentWords: levelInWords(model.currentLevel),
    fromWords: model.notice ? levelInWords(model.notice.from) : '',
    toWords: model.notice ? levelInWords(model.notice.to) : '',
  };
  return {
    // Header values cannot carry line breaks: a group name is one line.
    subject: SUBJECTS[model.type](model.groupName.replace(/[\r\n]+/g, ' ')),
    text: textEta.renderString(TEXT[model.type], data),
    html: htmlEta.renderString(HTML, data),
  };
}

/**
 * The mails (DESIGN §10): a text and an HTML part each, rendered with eta (HTML auto-escaped).
 * Every mail names the group, links to the participant's settings page and to a one-click
 * unsubscribe for its type.
 */
import { Eta } from 'eta';
import { levelInWords } from '../../common/privacy-model';
import type { EmailType } from '../interact.errors';

export interface MailModel {
  type: EmailType;
  groupName: string;
  settingsUrl: string;
  unsubscribeUrl: string;
  checkinUrl: string | null;
  requestedLevel: number;
  currentLevel: number;
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
};

const HTML = `<!doctype html>
<html lang="en"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1f2328">
<% if (it.type === 'checkinReminder') { %>
<p>It is time for your wellbeing check-in with <strong><%= it.groupName %></strong>.</p>
<% if (it.checkinUrl) { %><p><a href="<%= it.checkinUrl %>">Start my check-in</a></p><% } %>
<% } else { %>
<p><strong><%= it.groupName %></strong> asks you to review your privacy settings. They would like to see level <%= it.requestedLevel %>: <%= it.requestedWords %></p>
<p>You share level <%= it.currentLevel %> now: <%= it.currentWords %> You do not have to change anything.</p>
<p><a href="<%= it.settingsUrl %>">Review my privacy settings</a></p>
<% } %>
<p style="font-size:0.9em;color:#59636e"><a href="<%= it.settingsUrl %>">Privacy and email settings</a> · <a href="<%= it.unsubscribeUrl %>">Unsubscribe from these emails</a></p>
</body></html>`;

const SUBJECTS: Record<EmailType, (groupName: string) => string> = {
  checkinReminder: (groupName) => `Time for your check-in with ${groupName}`,
  privacyRequest: (groupName) => `${groupName} asks you to review your privacy settings`,
};

const htmlEta = new Eta({ autoEscape: true, autoTrim: false });
const textEta = new Eta({ autoEscape: false, autoTrim: false });

export function renderMail(model: MailModel): { subject: string; text: string; html: string } {
  const data = {
    ...model,
    requestedWords: levelInWords(model.requestedLevel),
    currentWords: levelInWords(model.currentLevel),
  };
  return {
    // Header values cannot carry line breaks: a group name is one line.
    subject: SUBJECTS[model.type](model.groupName.replace(/[\r\n]+/g, ' ')),
    text: textEta.renderString(TEXT[model.type], data),
    html: htmlEta.renderString(HTML, data),
  };
}

// The deterministic default seed: three workspaces (Pro, free, and another user's Pro one) with
// members of each role and invitations, forms covering every field type,
// a few hundred submissions per form mixing completed and partial, one token per ability set, and
// what makes each of the service's known quirks observable (a captcha form with null tags and a
// matrix field, a file answer with an empty entry before a file, a webhook whose logic filters
// submissions out). A seeded PRNG and a fixed base time make every fresh sandbox identical.
import { createHash } from 'node:crypto';
import { ABILITIES } from '@forms-api/types';
import type {
  AccessToken,
  Field,
  Form,
  Integration,
  Invite,
  Role,
  SeedFixture,
  Submission,
  User,
  Workspace,
} from '../model.js';

const BASE_TIME = Date.UTC(2026, 0, 15, 9, 0, 0);
const DAY = 24 * 60 * 60 * 1000;

function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const uuid = (random: () => number): string => {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/**
 * A stored file name as the service writes one (`<name>_<uuid>.<ext>`, StorageFileNameParser.php:30-40;
 * signatures `sign_<uuid>.png`, StoreFormSubmissionJob.php:455), its UUID derived from `key`
 * rather than drawn from a PRNG, so the seed's other values stay as they were.
 */
const storedName = (name: string, extension: string, key: string): string => {
  const hex = createHash('sha256').update(key).digest('hex');
  return `${name}_${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}.${extension}`;
};

const token = (id: number, random: () => number): string =>
  `${id}|${Array.from({ length: 40 }, () => 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'[Math.floor(random() * 62)]).join('')}`;

const FIRST = ['Jane', 'Omar', 'Li', 'Amélie', 'Kwame', 'Sofia', 'Ivan', 'Priya', 'Mateo', 'Yuki', 'Zoë', 'Noah'];
const LAST = [
  'Doe',
  'Haddad',
  'Wei',
  'Dubois',
  'Mensah',
  'García',
  'Petrov',
  'Sharma',
  'Rossi',
  'Tanaka',
  'Ødegaard',
  'Smith',
];
const CITIES = ['Zürich', 'Lagos', 'Osaka', 'Lyon', 'Austin', 'Pune', 'Porto', 'Tallinn'];

function contactFields(random: () => number): Field[] {
  return [
    { id: uuid(random), name: 'Name', type: 'text', required: true },
    { id: uuid(random), name: 'Email', type: 'email', required: true },
    {
      id: uuid(random),
      name: 'Topic',
      type: 'select',
      select: { options: ['Sales', 'Support', 'Billing'].map((n) => ({ id: n, name: n })) },
    },
    { id: uuid(random), name: 'Message', type: 'rich_text' },
    { id: uuid(random), name: 'Website', type: 'url' },
    { id: uuid(random), name: 'Attachment', type: 'files' },
    { id: uuid(random), name: 'Intro', type: 'nf-text' },
  ];
}

function surveyFields(random: () => number): Field[] {
  return [
    { id: uuid(random), name: 'Full name', type: 'text', required: true },
    { id: uuid(random), name: 'Age', type: 'number' },
    {
      id: uuid(random),
      name: 'Interests',
      type: 'multi_select',
      multi_select: { options: ['Music', 'Sport', 'Travel', 'Books'].map((n) => ({ id: n, name: n })) },
    },
    { id: uuid(random), name: 'Subscribe', type: 'checkbox' },
    { id: uuid(random), name: 'Visit date', type: 'date' },
    { id: uuid(random), name: 'Phone', type: 'phone_number' },
    { id: uuid(random), name: 'Rating', type: 'rating' },
    { id: uuid(random), name: 'Signature', type: 'signature' },
    { id: uuid(random), name: 'Referrer', type: 'hidden' },
  ];
}

function answerFor(field: Field, index: number, random: () => number): unknown {
  const person = `${FIRST[index % FIRST.length]} ${LAST[(index * 7) % LAST.length]}`;
  switch (field.type) {
    case 'text':
      return person;
    case 'email':
      return `${person
        .toLowerCase()
        .normalize('NFD')
        .replace(/[^a-z ]/g, '')
        .replace(' ', '.')}${index}@example.com`;
    case 'select':
      return field.select!.options[index % field.select!.options.length]!.name;
    case 'multi_select':
      return field.multi_select!.options.filter((_, i) => (index + i) % 2 === 0).map((o) => o.name);
    case 'rich_text':
      return `<p>Hello from ${CITIES[index % CITIES.length]}, message ${index}.</p>`;
    case 'url':
      return random() < 0.5 ? `https://example.com/${index}` : undefined;
    case 'files':
      return random() < 0.3 ? [storedName(`invoice-${index}`, 'pdf', `${field.id}/${index}`)] : undefined;
    case 'number':
      return 18 + (index % 60);
    case 'checkbox':
      return index % 3 !== 0;
    case 'date':
      return new Date(BASE_TIME - (index % 90) * DAY).toISOString().slice(0, 10);
    case 'phone_number':
      return `+4470000${String(index).padStart(5, '0')}`;
    case 'rating':
      return 1 + (index % 5);
    case 'signature':
      // The service stores a signature as one file name, not a list (StoreFormSubmissionJob.php:359-360).
      return random() < 0.4 ? storedName('sign', 'png', `${field.id}/${index}`) : undefined;
    case 'hidden':
      return 'newsletter';
    default:
      return undefined;
  }
}

/** Form 14: a captcha form with null tags, a required checkbox and rating, and a matrix field. */
function registrationFields(random: () => number): Field[] {
  return [
    { id: uuid(random), name: 'Name', type: 'text', required: true },
    { id: uuid(random), name: 'Email', type: 'email', required: true },
    {
      id: uuid(random),
      name: 'Ticket',
      type: 'select',
      select: { options: ['Standard', 'VIP'].map((n) => ({ id: n, name: n })) },
    },
    {
      id: uuid(random),
      name: 'Sessions',
      type: 'matrix',
      rows: ['Morning', 'Afternoon'],
      columns: ['Attending', 'Not attending'],
    },
    { id: uuid(random), name: 'I accept the terms', type: 'checkbox', required: true },
    { id: uuid(random), name: 'Experience', type: 'rating', required: true },
  ];
}

/** Form 15: a waitlist whose webhook sends only VIP sign-ups (its logic filters the others out). */
function waitlistFields(random: () => number): Field[] {
  return [
    { id: uuid(random), name: 'Name', type: 'text', required: true },
    {
      id: uuid(random),
      name: 'Tier',
      type: 'select',
      select: { options: ['Standard', 'VIP'].map((n) => ({ id: n, name: n })) },
    },
  ];
}

/** Form 16: an expense claim with receipts (files) and a signature; every field optional (an answer may leave all blank). */
function claimFields(random: () => number): Field[] {
  return [
    { id: uuid(random), name: 'Name', type: 'text' },
    { id: uuid(random), name: 'Amount', type: 'number' },
    {
      id: uuid(random),
      name: 'Category',
      type: 'select',
      select: { options: ['Travel', 'Meals', 'Equipment'].map((n) => ({ id: n, name: n })) },
    },
    { id: uuid(random), name: 'Receipts', type: 'files' },
    { id: uuid(random), name: 'Signature', type: 'signature' },
    { id: uuid(random), name: 'Urgent', type: 'checkbox' },
  ];
}

/** A completed claim: every field answered, two receipts and a signature. */
function claimAnswers(form: Form, index: number): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const field of form.properties) {
    answers[field.id] =
      field.type === 'text'
        ? `${FIRST[index % FIRST.length]} ${LAST[(index * 3) % LAST.length]}`
        : field.type === 'number'
          ? 12.5 * (index + 1)
          : field.type === 'select'
            ? field.select!.options[index % 3]!.name
            : field.type === 'files'
              ? [
                  storedName(`receipt-${index}-a`, 'pdf', `${field.id}/${index}/a`),
                  storedName(`receipt-${index}-b`, 'jpg', `${field.id}/${index}/b`),
                ]
              : field.type === 'signature'
                ? storedName('sign', 'png', `${field.id}/${index}`)
                : index % 2 === 0;
  }
  return answers;
}

/** A completed answer to every field of form 14 or 15, the required ones valid. */
function quirkAnswers(form: Form, index: number): Record<string, unknown> {
  const person = `${FIRST[index % FIRST.length]} ${LAST[(index * 5) % LAST.length]}`;
  const answers: Record<string, unknown> = {};
  for (const field of form.properties) {
    const value: unknown =
      field.type === 'text'
        ? person
        : field.type === 'email'
          ? `guest${index}@example.com`
          : field.type === 'select'
            ? index % 4 === 0
              ? 'VIP'
              : 'Standard'
            : field.type === 'matrix'
              ? { Morning: index % 2 === 0 ? 'Attending' : 'Not attending', Afternoon: 'Attending' }
              : field.type === 'checkbox'
                ? true
                : field.type === 'rating'
                  ? 1 + (index % 5)
                  : undefined;
    if (value !== undefined) answers[field.id] = value;
  }
  return answers;
}

function submissionsFor(
  form: Form,
  count: number,
  firstId: number,
  random: () => number,
  partialShare: number,
): Submission[] {
  const out: Submission[] = [];
  for (let i = 0; i < count; i++) {
    const status = random() < partialShare ? 'partial' : 'completed';
    const answers: Record<string, unknown> = {};
    for (const field of form.properties) {
      if (field.type.startsWith('nf-')) continue;
      // Partial fillings stop part-way through the form.
      if (status === 'partial' && random() < 0.5) continue;
      const value = answerFor(field, i, random);
      if (value !== undefined) answers[field.id] = value;
    }
    out.push({
      id: firstId + i,
      formId: form.id,
      status,
      answers,
      completionTime: status === 'completed' ? 20 + Math.floor(random() * 300) : null,
      // Spread over the last ~60 days, strictly increasing with the id (one-minute steps at least).
      createdAt: BASE_TIME - (count - i) * 17 * 60 * 1000,
      publicId: uuid(random),
    });
  }
  return out;
}

export function defaultSeed(options: { submissionsPerForm?: number } = {}): SeedFixture {
  const random = prng(20261122);
  const perForm = options.submissionsPerForm ?? 300;
  // Workspace 3 is Bob's (admin), where Alice is an ordinary member: the workspace writes that
  // need an admin refuse her there.
  const workspaces: Workspace[] = [
    { id: 1, name: 'Acme', plan: 'pro', icon: '🚀', createdAt: BASE_TIME - 400 * DAY },
    { id: 2, name: 'Side project', plan: 'free', icon: '', createdAt: BASE_TIME - 200 * DAY },
    { id: 3, name: 'Bob & co', plan: 'pro', icon: '🧪', createdAt: BASE_TIME - 100 * DAY },
  ];
  const users: User[] = [
    {
      id: 1,
      name: 'Alice Admin',
      email: 'alice@example.com',
      memberships: [
        { workspaceId: 1, role: 'admin' },
        { workspaceId: 2, role: 'admin' },
        { workspaceId: 3, role: 'user' },
      ],
    },
    {
      id: 2,
      name: 'Bob Outsider',
      email: 'bob@example.com',
      memberships: [
        { workspaceId: 2, role: 'user' },
        { workspaceId: 3, role: 'admin' },
      ],
    },
    { id: 3, name: 'Rita Readonly', email: 'rita@example.com', memberships: [{ workspaceId: 1, role: 'readonly' }] },
    { id: 4, name: 'Eddie Editor', email: 'eddie@example.com', memberships: [{ workspaceId: 1, role: 'user' }] },
  ];
  // Invitations of people without an account: workspace 1 has one pending, one accepted and one
  // expired; workspace 3 one pending.
  const invites: Invite[] = [
    invite(1, 1, 'newcomer@example.com', 'user', 'pending', 2),
    invite(2, 1, 'joined@example.com', 'readonly', 'accepted', 20),
    invite(3, 1, 'late@example.com', 'user', 'pending', 30),
    invite(4, 3, 'friend@example.com', 'admin', 'pending', 1),
  ];
  const all = ABILITIES;
  // `all`, `outsider`, `readonly` and `editor` hold every ability, workspaces-read and
  // workspaces-write included; `read`, `write` and `integrations` hold their form ability alone.
  const tokenSpecs: Array<[AccessToken['name'], number, AccessToken['abilities']]> = [
    ['all', 1, [...all]],
    ['read', 1, ['forms-read']],
    ['write', 1, ['forms-write']],
    ['integrations', 1, ['manage-integrations']],
    ['none', 1, []],
    ['outsider', 2, [...all]],
    ['readonly', 3, [...all]],
  ];
  const tokens = tokenSpecs.map(([name, userId, abilities], i) => ({
    name,
    userId,
    abilities,
    token: token(101 + i, random),
  }));
  // The pairs draw from their own PRNG, so every value drawn after the tokens above stays as it was.
  const pairs = prng(20261124);
  const pairSpecs: Array<[AccessToken['name'], AccessToken['abilities']]> = [
    ['withoutRead', ['forms-write', 'manage-integrations']],
    ['withoutWrite', ['forms-read', 'manage-integrations']],
    ['withoutIntegrations', ['forms-read', 'forms-write']],
  ];
  tokens.push(
    ...pairSpecs.map(([name, abilities], i) => ({ name, userId: 1, abilities, token: token(111 + i, pairs) })),
  );
  // The workspace tokens draw from their own PRNG too: the editor (a member with the role `user`)
  // and workspace 1's admin with one workspace ability alone.
  const members = prng(20261128);
  const memberSpecs: Array<[AccessToken['name'], number, AccessToken['abilities']]> = [
    ['editor', 4, [...all]],
    ['workspacesRead', 1, ['workspaces-read']],
    ['workspacesWrite', 1, ['workspaces-write']],
  ];
  tokens.push(
    ...memberSpecs.map(([name, userId, abilities], i) => ({ name, userId, abilities, token: token(121 + i, members) })),
  );
  const at = (days: number) => new Date(BASE_TIME - days * DAY).toISOString().replace('.000Z', '+00:00');
  const forms: Form[] = [
    {
      id: 11,
      workspaceId: 1,
      slug: 'contact-us-a1b2c3',
      title: 'Contact us',
      visibility: 'public',
      tags: ['support'],
      language: 'en',
      properties: contactFields(random),
      viewsCount: 4210,
      createdAt: at(120),
      updatedAt: at(2),
      closesAt: null,
      maxSubmissionsCount: null,
      partialSubmissions: true,
      editableSubmissions: true,
    },
    {
      id: 12,
      workspaceId: 1,
      slug: 'customer-survey-d4e5f6',
      title: 'Customer survey',
      visibility: 'public',
      tags: ['survey', 'q1'],
      language: 'en',
      properties: surveyFields(random),
      viewsCount: 1875,
      createdAt: at(90),
      updatedAt: at(5),
      closesAt: null,
      maxSubmissionsCount: null,
      editableSubmissions: true,
    },
    {
      id: 13,
      workspaceId: 1,
      slug: 'beta-signup-g7h8i9',
      title: 'Beta sign-up (closed)',
      visibility: 'closed',
      tags: [],
      language: 'en',
      properties: contactFields(random).slice(0, 2),
      viewsCount: 300,
      createdAt: at(200),
      updatedAt: at(60),
      closesAt: at(30),
      maxSubmissionsCount: 100,
    },
    {
      id: 21,
      workspaceId: 2,
      slug: 'side-feedback-j1k2l3',
      title: 'Side project feedback',
      visibility: 'public',
      tags: [],
      language: 'en',
      properties: surveyFields(random),
      viewsCount: 95,
      createdAt: at(40),
      updatedAt: at(1),
      closesAt: null,
      maxSubmissionsCount: null,
    },
  ];
  const submissions = [
    ...submissionsFor(forms[0]!, perForm, 1001, random, 0.2),
    ...submissionsFor(forms[1]!, perForm, 5001, random, 0.25),
    ...submissionsFor(forms[2]!, 40, 9001, random, 0),
    ...submissionsFor(forms[3]!, Math.min(perForm, 120), 12001, random, 0),
  ];

  // The quirk forms draw from their own PRNG, so the data above stays as it was.
  const quirks = prng(20261123);
  const registration: Form = {
    id: 14,
    workspaceId: 1,
    slug: 'event-registration-m4n5o6',
    title: 'Event registration',
    visibility: 'public',
    tags: null,
    language: 'en',
    captchaProvider: 'recaptcha',
    properties: registrationFields(quirks),
    viewsCount: 640,
    createdAt: at(30),
    updatedAt: at(3),
    closesAt: null,
    maxSubmissionsCount: null,
  };
  const waitlist: Form = {
    id: 15,
    workspaceId: 1,
    slug: 'vip-waitlist-p7q8r9',
    title: 'VIP waitlist',
    visibility: 'public',
    tags: ['vip'],
    language: 'en',
    properties: waitlistFields(quirks),
    viewsCount: 210,
    createdAt: at(20),
    updatedAt: at(4),
    closesAt: null,
    maxSubmissionsCount: null,
  };
  forms.push(registration, waitlist);
  for (const [form, count, firstId] of [
    [registration, 24, 14001],
    [waitlist, 12, 15001],
  ] as const) {
    for (let i = 0; i < count; i++) {
      submissions.push({
        id: firstId + i,
        formId: form.id,
        status: 'completed',
        answers: quirkAnswers(form, i),
        completionTime: 30 + i,
        createdAt: BASE_TIME - (count - i) * 53 * 60 * 1000,
        publicId: uuid(quirks),
      });
    }
  }
  // A file answer whose stored list holds an empty entry before the file (left by older saves).
  const attachment = forms[0]!.properties.find((f) => f.name === 'Attachment')!.id;
  const withEmptyEntry = submissions.find((s) => s.id === 1290);
  if (withEmptyEntry) withEmptyEntry.answers[attachment] = ['', storedName('passport-scan', 'pdf', 'submission-1290')];
  const tier = waitlist.properties.find((f) => f.name === 'Tier')!.id;
  const vipOnly: Integration = {
    id: 1,
    formId: waitlist.id,
    status: 'active',
    data: { webhook_url: 'https://receiver.invalid/vip-only', webhook_secret: 'whsec_sandbox_vip_only' },
    logic: {
      operatorIdentifier: 'and',
      children: [
        { identifier: tier, value: { operator: 'equals', property_meta: { id: tier, type: 'select' }, value: 'VIP' } },
      ],
    },
    createdAt: BASE_TIME - 5 * DAY,
    updatedAt: BASE_TIME - 5 * DAY,
  };
  // Form 16: files and a signature beside plain answers, every submission holding both (its own PRNG).
  const claims = prng(20261125);
  const claim: Form = {
    id: 16,
    workspaceId: 1,
    slug: 'expense-claim-s1t2u3',
    title: 'Expense claim',
    visibility: 'public',
    tags: ['finance'],
    language: 'en',
    properties: claimFields(claims),
    viewsCount: 88,
    createdAt: at(150),
    updatedAt: at(100),
    closesAt: null,
    maxSubmissionsCount: null,
    ipTracking: true,
  };
  forms.push(claim);
  for (let i = 0; i < 8; i++)
    submissions.push({
      id: 16001 + i,
      formId: claim.id,
      status: 'completed',
      answers: claimAnswers(claim, i),
      completionTime: 40 + i * 3,
      createdAt: BASE_TIME - (8 - i) * 71 * 60 * 1000,
      publicId: uuid(claims),
    });
  return { workspaces, users, tokens, forms, submissions, integrations: [vipOnly], invites };
}

/** An invitation sent `daysAgo` days before the base time, valid seven days from then (UserInvite.php). */
function invite(
  id: number,
  workspaceId: number,
  email: string,
  role: Role,
  status: Invite['status'],
  daysAgo: number,
): Invite {
  const createdAt = BASE_TIME - daysAgo * DAY;
  return { id, workspaceId, email, role, status, validUntil: createdAt + 7 * DAY, createdAt };
}

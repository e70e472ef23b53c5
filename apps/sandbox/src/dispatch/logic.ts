// An integration's logic: conditions on a submission's answers that decide whether its webhook is
// sent. A group is `{operatorIdentifier: "and" | "or", children: [...]}`; a condition is
// `{value: {operator, property_meta: {id, type}, value}}` (the shape the service's form editor
// saves). No logic (null, {} or []) always matches. An operator the sandbox does not know is not
// met, so a webhook with such logic sends nothing rather than everything.

type Condition = { operator?: unknown; property_meta?: { id?: unknown }; value?: unknown };

const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
const asNumber = (v: unknown) =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;

function conditionMet(condition: Condition, answer: unknown): boolean {
  const expected = condition.value;
  const compare = (test: (a: number, b: number) => boolean) => {
    const [a, b] = [asNumber(answer), asNumber(expected)];
    return !Number.isNaN(a) && !Number.isNaN(b) && test(a, b);
  };
  const equals = () =>
    Array.isArray(answer)
      ? Array.isArray(expected) && answer.length === expected.length && expected.every((e) => answer.includes(e))
      : answer === expected || compare((a, b) => a === b);
  const contains = () =>
    Array.isArray(answer)
      ? (Array.isArray(expected) ? expected : [expected]).every((e) => answer.includes(e))
      : typeof answer === 'string' && typeof expected === 'string' && answer.includes(expected);
  switch (condition.operator) {
    case 'equals':
      return equals();
    case 'does_not_equal':
      return !equals();
    case 'contains':
      return contains();
    case 'does_not_contain':
      return !contains();
    case 'starts_with':
      return typeof answer === 'string' && typeof expected === 'string' && answer.startsWith(expected);
    case 'ends_with':
      return typeof answer === 'string' && typeof expected === 'string' && answer.endsWith(expected);
    case 'is_empty':
      return isEmpty(answer);
    case 'is_not_empty':
      return !isEmpty(answer);
    case 'is_checked':
      return answer === true;
    case 'is_not_checked':
      return answer !== true;
    case 'greater_than':
      return compare((a, b) => a > b);
    case 'greater_than_or_equal_to':
      return compare((a, b) => a >= b);
    case 'less_than':
      return compare((a, b) => a < b);
    case 'less_than_or_equal_to':
      return compare((a, b) => a <= b);
    default:
      return false;
  }
}

function treeMet(node: unknown, answers: Record<string, unknown>): boolean {
  if (!node || typeof node !== 'object') return false;
  const group = node as { operatorIdentifier?: unknown; children?: unknown; value?: Condition };
  if (group.operatorIdentifier === undefined) {
    const condition = group.value ?? {};
    const fieldId = condition.property_meta?.id;
    return conditionMet(
      condition,
      typeof fieldId === 'string' && Object.hasOwn(answers, fieldId) ? answers[fieldId] : null,
    );
  }
  const children = Array.isArray(group.children) ? group.children : [];
  if (group.operatorIdentifier === 'and') return children.every((child) => treeMet(child, answers));
  if (group.operatorIdentifier === 'or') return children.some((child) => treeMet(child, answers));
  return false;
}

/** Whether a submission with these answers is sent to an integration with this logic. */
export function logicMet(logic: unknown, answers: Record<string, unknown>): boolean {
  if (logic === null || logic === undefined || (typeof logic === 'object' && Object.keys(logic).length === 0))
    return true;
  return treeMet(logic, answers);
}

/** Set and not null, as the service's `isset` asks of a key of an object or an array. */
const isSet = (node: unknown, key: string): boolean =>
  node !== null && typeof node === 'object' && (node as Record<string, unknown>)[key] != null;

/**
 * What the service's rule finds wrong with a logic tree it can walk, in its words (the details of
 * its 422). Only a node with `operatorIdentifier` (a group) or a set `identifier` (a condition) is
 * checked; anything else passes. The type of a condition's `value.value` is not checked here: the
 * service judges it from a table of operators per field type that the sandbox does not hold.
 * Trees the rule cannot walk are answered 500 before this runs (IntegrationInputFailingTheService).
 */
export function logicProblems(node: unknown, problems: string[] = []): string[] {
  if (node === null || typeof node !== 'object') return problems;
  const n = node as Record<string, any>;
  // An array's keys are its indexes: it is never a group.
  if (!Array.isArray(node) && 'operatorIdentifier' in n) {
    if (n.operatorIdentifier !== 'and' && n.operatorIdentifier !== 'or') problems.push('missing operator');
    else if (n.children === null || typeof n.children !== 'object') problems.push('wrong sub-condition type');
    else for (const child of Object.values(n.children)) logicProblems(child, problems);
  } else if (isSet(n, 'identifier')) {
    const value = n.value;
    if (value == null) problems.push('missing condition body');
    else if (!isSet(value, 'property_meta')) problems.push('missing condition property');
    else if (!isSet(value.property_meta, 'type')) problems.push('missing condition property type');
    else if (!isSet(value, 'operator')) problems.push('missing condition operator');
  }
  return problems;
}

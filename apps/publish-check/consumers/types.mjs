// The types package has an (empty) runtime entry so plain imports never fail.
import * as types from '@forms-api/types';
console.log('esm: @forms-api/types ok', Object.keys(types).length === 0 ? '(types only)' : '');

require('@forms-api/types');
console.log('cjs: @forms-api/types ok');

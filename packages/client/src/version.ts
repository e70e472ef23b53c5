// The package version, sent in the default User-Agent. A test keeps it equal to package.json's
// (reading package.json at run time would need a Node built-in or a JSON import in every runtime).
export const VERSION = '0.1.0';

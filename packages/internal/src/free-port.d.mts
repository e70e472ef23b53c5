/** A port nobody listens on now, on 127.0.0.1 (chosen by the OS, then released). */
export declare function freePort(): Promise<number>;

/** Debian's Chromium (or $CHROMIUM_PATH). */
export declare const chromiumPath: string;
/** Flags every Chromium this project starts gets. */
export declare const chromiumArgs: string[];

/** The recipient's files: sizes beside names, "Download all" above the list (issue 29). */
export const RECIPIENT_CSS = `
.files .size { margin-left: 0.5rem; white-space: nowrap; }
.download-all { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1rem; }
.files a { overflow-wrap: anywhere; }
`;

import { spawn } from 'node:child_process';

/*
 * `push --copy`: the link goes to the system clipboard through the platform's own tool, where one
 * exists: pbcopy (macOS), clip (Windows), wl-copy (a Wayland session), xclip or xsel (an X11
 * session), clip.exe (WSL). The text is written to the tool's stdin, never put in its arguments.
 */

interface Candidate {
  command: string;
  args: string[];
}

/** The clipboard tools to try, in order, for this platform and session. */
export function clipboardCandidates(
  platform: NodeJS.Platform,
  env: Record<string, string | undefined>,
): Candidate[] {
  if (platform === 'darwin') return [{ command: 'pbcopy', args: [] }];
  if (platform === 'win32') return [{ command: 'clip', args: [] }];
  const candidates: Candidate[] = [];
  if (env.WAYLAND_DISPLAY) candidates.push({ command: 'wl-copy', args: [] });
  if (env.DISPLAY) {
    candidates.push({ command: 'xclip', args: ['-selection', 'clipboard'] });
    candidates.push({ command: 'xsel', args: ['--clipboard', '--input'] });
  }
  if (env.WSL_DISTRO_NAME) candidates.push({ command: 'clip.exe', args: [] });
  return candidates;
}

/** Runs one tool with `text` on stdin: true when it exits 0, false when it is missing or fails. */
function runTool(
  candidate: Candidate,
  text: string,
  env: Record<string, string | undefined>,
): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(candidate.command, candidate.args, {
      env,
      // xclip and wl-copy fork a process that serves the selection and exit: the exit is awaited.
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const timer = setTimeout(() => {
      child.kill();
      resolve(false);
    }, 5_000);
    child.on('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
    child.stdin.on('error', () => {}); // a tool that exits early: its exit code tells
    child.stdin.end(text);
  });
}

/**
 * Copies `text` to the clipboard. Returns the tool that took it, or undefined when there is no
 * clipboard here (no tool found, or none accepted it).
 */
export async function copyToClipboard(
  text: string,
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
): Promise<string | undefined> {
  for (const candidate of clipboardCandidates(platform, env)) {
    if (await runTool(candidate, text, env)) return candidate.command;
  }
  return undefined;
}

/* The style sheet of the HTML docs page, inlined: the page loads no assets. */

/** Light and dark schemes, readable on a phone. */
export const STYLE = `:root{color-scheme:light dark;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5}
body{margin:0 auto;max-width:62rem;padding:1rem}
h1{font-size:1.8rem;margin:.5rem 0}h2{margin-top:2rem;border-bottom:2px solid #8886}h3{margin-bottom:.25rem}h4{margin:1rem 0 .25rem}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
code{overflow-wrap:anywhere}pre{overflow-x:auto;padding:.5rem;background:#8881;border-radius:.25rem}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;margin:.25rem 0 1rem;font-size:.95em}
caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{border:1px solid #8886;padding:.35rem .5rem;text-align:left;vertical-align:top}
thead th{background:#8882}
.method{display:inline-block;min-width:4.5em;padding:0 .4em;border-radius:.25rem;color:#fff;font-weight:700;text-align:center;font-family:ui-monospace,monospace}
.get{background:#1e6b41}.post{background:#1d4f91}.delete{background:#a32626}
.summary{font-size:1.1em;font-weight:600;margin:.25rem 0}
.c{display:inline-block;margin:0 .25em .1em 0;padding:0 .35em;border:1px solid #8888;border-radius:.25rem;font-size:.85em}
article{border-top:1px solid #8886;margin-top:1.5rem;padding-top:.25rem}
nav ul{padding-left:1.2rem}
@media (max-width:40rem){body{padding:.5rem}th,td{padding:.25rem .3rem}h1{font-size:1.4rem}}`;

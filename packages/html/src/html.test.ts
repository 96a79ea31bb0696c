import { escapeHtml, html, trusted } from './index';

/** Under another name, so that prettier leaves the exact markup of these templates alone. */
const tag = html;

describe('html', () => {
  it('escapes interpolated text, attributes included', () => {
    const evil = `"><script>alert('x')</script>&`;
    expect(tag`<p title="${evil}">${evil}</p>`.value).toBe(
      '<p title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</p>',
    );
  });

  it('nests templates and arrays without double escaping, drops null, undefined and false', () => {
    const items = ['a&b', 'c'].map((t) => tag`<li>${t}</li>`);
    expect(tag`<ul>${items}</ul>${null}${undefined}${false}${0}`.value).toBe(
      '<ul><li>a&amp;b</li><li>c</li></ul>0',
    );
  });

  it('inserts trusted markup as is', () => {
    expect(tag`<div>${trusted('<svg></svg>')}</div>`.value).toBe('<div><svg></svg></div>');
    expect(escapeHtml('`')).toBe('&#96;');
  });
});

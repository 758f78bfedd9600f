/*
 * report_html_page.c - the HTML report's style sheet and script
 * (report_html.h), kept apart from the C that writes the page. The script
 * only adds the replay: it reads a game's data-* attributes (the board
 * files of its positions as report_html.h describes them) and draws each
 * position with the one board drawing (boardhtml.h's BOARDHTML_SCRIPT,
 * pasted in; the games section's data-layout, data-labels and data-plain
 * are its spec, boardhtml_attributes), with a legend of each side's piece
 * and first / back / next / last buttons. With "#test-replay=GAME,N" in
 * the address it opens GAME, presses next N times with the page's own
 * button and writes the board file it shows into <pre id="test-result">,
 * for make test-browser; any script error is written into
 * <pre id="js-errors">.
 */
#include "boardhtml.h"
#include "report_html.h"

const char report_html_style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1em auto;max-width:72em;padding:0 1em;"
    "color:#222;background:#fff}\n"
    "h1{font-size:1.6em}h2{margin-top:1.6em;border-bottom:1px solid #ccc}\n"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 8px;"
    "text-align:right}th{background:#f3f3f3}td.name,th.name{text-align:left}\n"
    "svg{display:block;margin:.5em 0;background:#fff}svg text{font:12px sans-serif}\n"
    "pre{background:#f6f6f6;padding:4px;overflow-x:auto;white-space:pre-wrap}"
    "pre:empty{display:none}\n"
    "details.game{border-bottom:1px solid #eee;padding:2px 0}summary{cursor:pointer}\n"
    "mark.blunder{background:#fbb}p.moves{font-family:monospace}\n"
    BOARDHTML_STYLE
    ".legend table,.legend span{display:inline-table;vertical-align:middle;margin:0 2px}"
    ".legend .board{margin:0}.legend span span{display:inline-block}\n"
    ".replay button{margin-right:4px}.replay .blunder{color:#c00;font-weight:bold}\n";

const char report_html_script[] =
    "(function(){'use strict';\n"
    "function fail(m){var p=document.getElementById('js-errors');if(p)p.textContent+=m+'\\n';}\n"
    "window.addEventListener('error',function(ev){fail(ev.message||'error');});\n"
    /* The board file of each position: start, then each ply's changes. */
    "function positions(el){var t=el.getAttribute('data-start')||'',d=el.getAttribute("
    "'data-diff')||'',n=+el.getAttribute('data-plies'),out=[t],cur=t.split(''),i=0;\n"
    " for(var k=0;k<n;k++){while(i<d.length&&d[i]!==';'){var c=d.indexOf(':',i);\n"
    "  if(d[i]==='*'){var len=+d.slice(i+1,c);cur=d.substr(c+1,len).split('');i=c+1+len;}\n"
    "  else{cur[+d.slice(i,c)]=d[c+1];i=c+2;}}\n"
    "  i++;out.push(cur.join(''));}\n"
    " return out;}\n"
    /* The one board drawing (boardhtml.h), and this page's use of it: the
     * games section's data-layout, data-labels and data-plain with each
     * game's data-game. */
    BOARDHTML_SCRIPT
    "function spec(game){return boardSpecOf(document.getElementById('games'),game);}\n"
    "function draw(box,s,text){box.textContent='';box.appendChild(boardDraw(s,text));}\n"
    "function button(bar,label,fn){var b=document.createElement('button');b.type='button';"
    "b.textContent=label;b.addEventListener('click',fn);bar.appendChild(b);return b;}\n"
    /* Which colour is which engine: each side's piece is what its first move
     * (after the opening) puts on the board, other than the start's most
     * common character (the empty cell); drawn as the board draws it. */
    "function body(t){return boardLines(t).join('\\n');}\n"
    "function legend(box,el,s,pos,sides){var pc=['',''],cnt={},empty='',b0=body(pos[0]);\n"
    " for(var i=0;i<b0.length;i++){var ch=b0[i];if(ch==='\\n')continue;cnt[ch]=(cnt[ch]||0)+1;"
    "if(!empty||cnt[ch]>cnt[empty])empty=ch;}\n"
    " for(var k=1;s.layout!=='rows'&&k<pos.length&&!(pc[0]&&pc[1]);k++){var c=sides[k-1];"
    "if(!c||c==='o')continue;\n"
    "  var w=c==='1'||c==='A'?0:1,a=body(pos[k-1]),b=body(pos[k]);\n"
    "  for(var j=0;j<b.length&&!pc[w];j++)if(b[j]!==a[j]&&b[j]!==empty&&b[j]!=='\\n')pc[w]=b[j];}\n"
    " var d=document.createElement('div');d.className='legend';\n"
    " [1,2].forEach(function(n){var ch=pc[n-1];if(ch)d.appendChild(boardPiece(s,ch));\n"
    "  var t=document.createElement('span');t.textContent=' player '+n+': '+"
    "el.getAttribute('data-p'+n)+(n===1?';  ':'');d.appendChild(t);});\n"
    " box.insertBefore(d,box.childNodes[1]||null);}\n"
    "function build(el){if(el.replay)return el.replay;var box=el.querySelector('.replay'),"
    "fin=el.querySelector('.final');if(fin)fin.hidden=true;\n"
    " var pos=positions(el),moves=(el.getAttribute('data-moves')||'').split(' '),"
    "sides=el.getAttribute('data-sides')||'',s=spec(el.getAttribute('data-game')),ply=0;\n"
    " var bar=document.createElement('div'),label=document.createElement('span'),"
    "board=document.createElement('div'),text=document.createElement('pre');\n"
    " text.className='board-text';box.appendChild(bar);box.appendChild(board);"
    "box.appendChild(text);\n"
    " function show(){draw(board,s,pos[ply]);text.textContent=pos[ply];\n"
    "  var w=ply?sides[ply-1]:'',who=w==='o'?' (opening)':w?' by '+el.getAttribute("
    "'data-p'+(w==='1'||w==='A'?'1':'2')):'';\n"
    "  label.textContent=' ply '+ply+' of '+(pos.length-1)+(ply?': '+moves[ply-1]+who:"
    "' (start)');\n"
    "  label.className=w==='A'||w==='B'?'blunder':'';if(label.className)label.textContent+="
    "' - a blunder';}\n"
    " var r={first:button(bar,'|<',function(){ply=0;show();}),\n"
    "  back:button(bar,'<',function(){if(ply>0)ply--;show();}),\n"
    "  next:button(bar,'>',function(){if(ply<pos.length-1)ply++;show();}),\n"
    "  last:button(bar,'>|',function(){ply=pos.length-1;show();}),\n"
    "  board:function(){return pos[ply];},ply:function(){return ply;}};\n"
    " bar.appendChild(label);legend(box,el,s,pos,sides);show();el.replay=r;return r;}\n"
    "document.addEventListener('toggle',function(ev){var el=ev.target;if(el.open&&"
    "el.classList&&el.classList.contains('game'))build(el);},true);\n"
    "var m=/test-replay=([^,&]+),(\\d+)/.exec(location.hash);\n"
    "if(m){var out=document.createElement('pre'),el=document.getElementById('game-'+m[1]);\n"
    " out.id='test-result';\n"
    " if(el){el.open=true;var r=build(el);for(var k=0;k<+m[2];k++)r.next.click();\n"
    "  out.setAttribute('data-ply',r.ply());out.textContent=r.board();}\n"
    " else out.textContent='no game '+m[1];\n"
    " document.body.appendChild(out);}\n"
    "})();\n";

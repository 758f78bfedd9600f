/*
 * playsrv_page.c - the page of `referee play` (playsrv.h), kept apart from
 * the C that serves it: one self-contained HTML document with its style
 * and script. The script asks /api/info how to draw the game (the game's
 * struct game_drawing: layout, labels, style rules) and draws its board
 * with the one board drawing the HTML report and the grade's pages use
 * (boardhtml.h's BOARDHTML_SCRIPT, pasted in, and its style sheet, its
 * cells a size larger for the mouse), and plays through the API: a click on a cell plays the legal
 * move that changes it (or, on a grid, the one in its column), a column's
 * button or a digit key plays in that column, the move box takes any move
 * text, F2 starts a new game. A built-in searching player (alphabeta:D)
 * plays at the depth of the box beside its selector. A computer to move is asked to move until a
 * person is to move or the game is over (a move refused with Retry-After,
 * every search place taken, is asked again then). While open, the page
 * tells the server it is there (/api/alive, info's poll_ms), or its game
 * would be closed. The learning window (games with a
 * learned player) trains in steps of the API, a progress bar and the
 * running score after each, stop, and links to each learner's weights.
 * Every control and cell has an aria-label. Script errors are written into <pre id="js-errors">.
 * Every POST carries the server's token (playgate.h), which the server
 * writes into the page's <meta name="arena-token">.
 */
#include "arena/playsrv.h"
#include "referee/report/boardhtml.h"
#include "playgate.h"

const char playsrv_page[] =
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    "<title>arena play</title>\n<link rel=\"icon\" href=\"data:,\">\n"
    "<meta name=\"arena-token\" content=\"" PLAYSRV_PAGE_TOKEN "\">\n<style id=\"base\">\n"
    "body{font:15px/1.4 system-ui,sans-serif;margin:1em auto;max-width:60em;padding:0 1em}\n"
    "button,select,input{font:inherit;margin:2px}\n"
    BOARDHTML_STYLE
    ".board td{width:34px;height:34px;cursor:pointer}\n"
    ".board td:focus{outline:3px solid #fc0}\n"
    "#cols button{width:36px}#status{font-weight:bold}#error{color:#b00}\n"
    "#moves{font-family:monospace}pre{background:#f6f6f6;padding:4px}pre:empty{display:none}\n"
    "table.cpu td,table.cpu th{border:1px solid #ccc;padding:1px 6px}\n"
    "</style><style id=\"game-style\"></style></head>\n<body>\n"
    "<h1 id=\"title\">arena play</h1>\n"
    "<div id=\"controls\">\n"
    "<label>Player 1 <select id=\"p1\" aria-label=\"player 1\"></select></label>\n"
    "<label>Player 2 <select id=\"p2\" aria-label=\"player 2\"></select></label>\n"
    "<label id=\"d1l\" hidden>Player 1 depth <input id=\"d1\" type=\"number\" min=\"1\" "
    "size=\"3\" aria-label=\"depth for player 1\"></label>\n"
    "<label id=\"d2l\" hidden>Player 2 depth <input id=\"d2\" type=\"number\" min=\"1\" "
    "size=\"3\" aria-label=\"depth for player 2\"></label>\n"
    "<label id=\"w1l\" hidden>Player 1 weights <input type=\"file\" id=\"w1\" "
    "aria-label=\"player 1 weights\"></label>\n"
    "<label id=\"w2l\" hidden>Player 2 weights <input type=\"file\" id=\"w2\" "
    "aria-label=\"player 2 weights\"></label>\n"
    "<button type=\"button\" id=\"new\" aria-label=\"new game\">New game (F2)</button>\n"
    "<button type=\"button\" id=\"undo\" aria-label=\"undo\">Undo</button>\n"
    "<label>Move <input id=\"move\" aria-label=\"move\" size=\"8\"></label>\n"
    "<button type=\"button\" id=\"play\" aria-label=\"play move\">Play</button>\n"
    "</div>\n"
    "<p id=\"status\" role=\"status\" aria-live=\"polite\"></p><p id=\"error\" role=\"alert\"></p>\n"
    "<div id=\"cols\"></div><div id=\"board\"></div><div id=\"legal\"></div>\n"
    "<pre id=\"report\"></pre>\n"
    "<h2>Moves</h2><p id=\"moves\"></p>\n"
    "<table class=\"cpu\" id=\"cpu\"></table>\n"
    "<section id=\"learn\" hidden><h2>Learning</h2>\n"
    "<label>Opponent <select id=\"opp\" aria-label=\"opponent\"><option>random</option>"
    "<option>trained</option><option>alphabeta</option><option>learning</option>"
    "<option>self</option></select></label>\n"
    "<label>Depth <input id=\"depth\" aria-label=\"depth\" type=\"number\" min=\"1\" "
    "max=\"12\" value=\"4\" size=\"3\"></label>\n"
    "<label>Games <input id=\"games\" aria-label=\"games\" type=\"number\" min=\"1\" "
    "value=\"1000\" size=\"7\"></label>\n"
    "<label>gamma <input id=\"gamma\" aria-label=\"gamma\" value=\"0.95\" size=\"5\"></label>\n"
    "<label>alpha <input id=\"alpha\" aria-label=\"alpha\" value=\"0.2\" size=\"5\"></label>\n"
    "<label>epsilon <input id=\"epsilon\" aria-label=\"epsilon\" value=\"0.1\" size=\"5\">"
    "</label>\n"
    "<label>switch probability <input id=\"switch\" aria-label=\"switch probability\" "
    "value=\"0.3\" size=\"5\"></label>\n"
    "<label>seed <input id=\"seed\" aria-label=\"seed\" value=\"1\" size=\"6\"></label>\n"
    "<button type=\"button\" id=\"train\" aria-label=\"start training\">Train</button>\n"
    "<button type=\"button\" id=\"stop\" aria-label=\"stop training\" disabled>Stop</button>\n"
    "<p><progress id=\"bar\" aria-label=\"training progress\" value=\"0\" max=\"1\"></progress>"
    " <span id=\"score\" role=\"status\"></span></p>\n"
    "<p id=\"save\"></p></section>\n"
    "<pre id=\"js-errors\"></pre>\n"
    "<script>\n"
    "(function(){'use strict';\n"
    "var info=null,st=null,busy=false;\n"
    "function $(id){return document.getElementById(id);}\n"
    "window.addEventListener('error',function(ev){$('js-errors').textContent+=(ev.message||'error')"
    "+'\\n';});\n"
    /* A GET (body undefined) or a POST with the token; keep: sent even as
     * the page goes (pagehide). A refusal's reason may be plain text. */
    "var token=document.querySelector('meta[name=arena-token]').content;\n"
    "function opts(body,keep){return body===undefined?{}:{method:'POST',keepalive:!!keep,"
    "headers:{'Content-Type':'application/json','" PGATE_TOKEN_HEADER "':token},"
    "body:JSON.stringify(body)};}\n"
    "function api(path,body){return fetch(path,opts(body)).then(function(r){"
    "return r.text().then(function(t){var j;try{j=JSON.parse(t);}catch(x){j={error:t};}"
    "if(!r.ok){var e=new Error(j.error||r.status);e.status=r.status;"
    "e.retry=+r.headers.get('Retry-After')||0;throw e;}return j;});});}\n"
    "function el(tag,attrs,text){var e=document.createElement(tag);for(var k in attrs)"
    "e.setAttribute(k,attrs[k]);if(text!==undefined)e.textContent=text;return e;}\n"
    "function showError(e){$('error').textContent=e?String(e.message||e):'';}\n"
    /* The move a click on (row, col) means: one that changes that cell, else
     * (a grid, Connect-4's columns) the one whose cells are in that column. */
    "var pending=null;\n"
    "function has(m,r,c){return m.cells.some(function(x){return x[0]===r&&x[1]===c;});}\n"
    "function moveAt(r,c){if(!st)return null;var byCol=null;\n"
    " st.legal.forEach(function(m){if(byCol===null&&m.cells.some(function(x){return x[1]===c;}))"
    "byCol=m.move;});\n"
    /* Moves that change several cells (checkers: from, to, captures) take
     * as many clicks as it needs to leave one. */
    " var cands=(pending||st.legal).filter(function(m){return has(m,r,c);});\n"
    " if(cands.length===1){pending=null;return cands[0].move;}\n"
    " if(cands.length>1){pending=cands;$('status').textContent='Moves: '+cands.map(function(m)"
    "{return m.move;}).join(', ')+': click another of their cells';return null;}\n"
    " pending=null;return columns()?byCol:null;}\n"
    /* A game played by columns (Connect-4): every legal move places one
     * piece, at most one per column; a click anywhere in a column plays it. */
    "function columns(){if(!st||info.layout!=='grid'||!st.legal.length)return false;var seen={};\n"
    " return st.legal.every(function(m){if(m.cells.length!==1||seen[m.cells[0][1]])return false;"
    "seen[m.cells[0][1]]=1;return true;});}\n"
    /* The board: the one board drawing (boardhtml.h), each cell also a
     * control (focusable, named, a click or Enter plays its move), each
     * row named, the columns' buttons above a game played by columns. */
    BOARDHTML_SCRIPT
    "var spec=null;\n"
    "function drawBoard(){var box=$('board'),cols=$('cols');box.textContent='';cols.textContent='';\n"
    " if(columns()){for(var c=0;c<(boardLines(st.board)[0]||'').length;c++){(function(c){\n"
    "  var b=el('button',{type:'button','aria-label':'column '+(c+1)},String(c+1));\n"
    "  b.addEventListener('click',function(){column(c);});"
    "cols.appendChild(b);})(c);}}\n"
    " var b=boardDraw(spec,st.board,{row:function(d,r){d.setAttribute('aria-label','row '+r);},\n"
    "  cell:function(td,r,c){td.setAttribute('tabindex','0');"
    "td.setAttribute('aria-label','row '+(r+1)+' column '+(c+1));\n"
    "   td.addEventListener('click',function(){var m=moveAt(r,c);if(m!==null)play(m);"
    "else if(!pending)showError('no legal move there');});\n"
    "   td.addEventListener('keydown',function(ev){if(ev.key==='Enter'||ev.key===' '){"
    "ev.preventDefault();td.click();}});}});\n"
    " if(spec.layout!=='rows'){b.setAttribute('role','grid');b.setAttribute('aria-label','board');}\n"
    " box.appendChild(b);}\n"
    /* A column's button or key: its move, or why there is none (a full
     * column takes no disc, and the click would otherwise do nothing). */
    "function column(c){var m=moveAt(-1,c);if(m!==null)play(m);else if(!busy)showError("
    "st&&st.over?'the game is over: start a new one':'column '+(c+1)+' is full: no disc "
    "fits there, choose another column');}\n"
    /* A forfeit says what the match's result line says (match_forfeit_words). */
    "function render(){pending=null;drawBoard();var who=st.players[st.to_move-1];\n"
    " $('status').textContent=st.over?'Game over: '+st.result+' ('+(st.forfeit||st.reason)+"
    "(st.score?', '+st.score:'')+')':"
    "'Player '+st.to_move+' ('+who+') to move';\n"
    " $('report').textContent=st.report||'';\n"
    " $('moves').textContent=st.moves.map(function(m,i){return (i+1)+'. '+(m.move||'-')+"
    "(m.status!=='ok'?' ['+m.status+']':'');}).join(' ');\n"
    " var lg=$('legal');lg.textContent='';if(!columns()&&!st.over&&"
    "st.players[st.to_move-1]==='person')st.legal.forEach(function(m){var b=el('button',"
    "{type:'button','aria-label':'move '+m.move},m.move);b.addEventListener('click',function(){"
    "play(m.move);});lg.appendChild(b);});\n"
    " var t=$('cpu');t.textContent='';var h=el('tr',{});['ply','player','move','CPU ms'].forEach("
    "function(x){h.appendChild(el('th',{},x));});t.appendChild(h);\n"
    " st.moves.forEach(function(m,i){var who=st.players[m.side-1];if(who==='person')return;"
    "var tr=el('tr',{});[i+1,who,m.move||m.status,m.cpu_ms===null?'':m.cpu_ms.toFixed(1)]."
    "forEach(function(x){tr.appendChild(el('td',{},String(x)));});t.appendChild(tr);});\n"
    " document.body.setAttribute('data-state',st.over?'over':'playing');}\n"
    "function computer(){if(!st||st.over||st.players[st.to_move-1]==='person'){busy=false;"
    "document.body.setAttribute('data-busy','0');return Promise.resolve();}\n"
    " return api('/api/computer',{id:st.id}).then(function(s){st=s;render();return computer();},"
    "function(e){if(!e.retry)throw e;$('status').textContent=e.message;\n"
    "  return new Promise(function(ok){setTimeout(ok,e.retry*1000);}).then(computer);});}\n"
    "function step(p){if(busy)return;busy=true;document.body.setAttribute('data-busy','1');"
    "showError(null);\n"
    " p.then(function(s){st=s;render();return computer();}).catch(function(e){busy=false;"
    "document.body.setAttribute('data-busy','0');showError(e);});}\n"
    "function play(m){if(st)step(api('/api/move',{id:st.id,move:String(m)}));}\n"
    /* A built-in searching player ("alphabeta:4": at --depth) plays at the
     * depth of the box beside its selector, any from 1 to max_depth. */
    "function searcher(p){return info.engines.indexOf(p)<0&&/:[0-9]+$/.test(p);}\n"
    "function nameOf(s){var p=$('p'+s).value,d=$('d'+s).value;return searcher(p)&&/^[0-9]+$/"
    ".test(d)?p.replace(/:[0-9]+$/,':'+(+d)):p;}\n"
    /* Selects name: an option, or a searcher's at another depth. */
    "function choose(s,name){var sel=$('p'+s),m=/^(.*):([0-9]+)$/.exec(name);sel.value=name;\n"
    " if(sel.value!==name&&m)[].forEach.call(sel.options,function(o){if(searcher(o.value)&&"
    "o.value.indexOf(m[1]+':')===0){sel.value=o.value;$('d'+s).value=m[2];}});}\n"
    /* A learned player's weights: the file chosen, or null for the shipped one. */
    "function weightsOf(s){var f=$('w'+s).files,p=$('p'+s).value;if(p.indexOf('qlearn')!==0||"
    "!f||!f.length)return Promise.resolve(null);return f[0].text();}\n"
    "function showWeights(){[1,2].forEach(function(s){var p=$('p'+s).value;$('w'+s+'l').hidden="
    "p.indexOf('qlearn')!==0;$('d'+s+'l').hidden=!searcher(p);});}\n"
    "function newGame(){var old=st;if(old)api('/api/close',{id:old.id}).catch(function(){});\n"
    " st=null;step(Promise.all([weightsOf(1),weightsOf(2)]).then(function(w){return api("
    "'/api/new',{players:[nameOf(1),nameOf(2)],weights:w});}));}\n"
    "$('p1').addEventListener('change',showWeights);$('p2').addEventListener('change',"
    "showWeights);\n"
    "$('new').addEventListener('click',newGame);\n"
    "$('undo').addEventListener('click',function(){if(st)step(api('/api/undo',{id:st.id}));});\n"
    "$('play').addEventListener('click',function(){play($('move').value.trim());});\n"
    "$('move').addEventListener('keydown',function(ev){if(ev.key==='Enter')$('play').click();});\n"
    "document.addEventListener('keydown',function(ev){if(ev.key==='F2'){ev.preventDefault();"
    "newGame();return;}\n"
    " if(ev.target.tagName==='INPUT'||ev.target.tagName==='SELECT')return;\n"
    " if(/^[1-9]$/.test(ev.key)&&columns())column(+ev.key-1);});\n"
    "function bye(path,body){fetch(path,opts(body,true)).catch(function(){});}\n"
    /* While it is open the page says so, or the server closes its game
     * (--page-timeout-s), as it does when the page went without a word. */
    "function alive(){if(st){var id=st.id;api('/api/alive',{id:id}).catch(function(e){"
    "if(e.status===404&&st&&st.id===id)showError('game '+id+' was closed while this page was "
    "away: start a new game (F2)');});}}\n"
    "window.addEventListener('pagehide',function(){if(st)bye('/api/close',{id:st.id});"
    "if(tr)bye('/api/train/close',{id:tr.id});});\n"
    /* The learning window: games in steps, the bar and the score after each;
     * at the end (or on stop) a link to each learner's weights file. */
    "var tr=null,stopped=false;\n"
    "function score(t){$('bar').max=t.games;$('bar').value=t.played;$('score').textContent="
    "t.played+' of '+t.games+' games: learner 1 won '+t.win+', drew '+t.draw+', lost '+t.loss;}\n"
    "function saveLinks(t){var p=$('save');p.textContent='';for(var l=1;l<=t.learners;l++){"
    "var a=el('a',{href:'/api/train/weights?id='+t.id+'&learner='+l,download:'learner'+l+"
    "'.weights','aria-label':'save learner '+l+' weights'},'Save learner '+l+' weights');"
    "p.appendChild(a);p.appendChild(document.createTextNode(' '));}\n"
    " document.body.setAttribute('data-training','done');$('train').disabled=false;"
    "$('stop').disabled=true;}\n"
    "function trainStep(){if(stopped||tr.played>=tr.games)return saveLinks(tr);\n"
    " api('/api/train/step',{id:tr.id}).then(function(t){tr=t;score(t);trainStep();})"
    ".catch(function(e){showError(e);saveLinks(tr);});}\n"
    "$('train').addEventListener('click',function(){if(tr)api('/api/train/close',{id:tr.id})"
    ".catch(function(){});tr=null;stopped=false;$('save').textContent='';showError(null);\n"
    " var o=$('opp').value;if(o==='alphabeta')o+=':'+$('depth').value;\n"
    " document.body.setAttribute('data-training','running');$('train').disabled=true;"
    "$('stop').disabled=false;\n"
    " api('/api/train/start',{opponent:o,games:+$('games').value,gamma:+$('gamma').value,"
    "alpha:+$('alpha').value,epsilon:+$('epsilon').value,'switch':+$('switch').value,"
    "seed:+$('seed').value}).then(function(t){tr=t;score(t);trainStep();}).catch(function(e){"
    "showError(e);$('train').disabled=false;$('stop').disabled=true;"
    "document.body.setAttribute('data-training','failed');});});\n"
    "$('stop').addEventListener('click',function(){stopped=true;});\n"
    "api('/api/info').then(function(i){info=i;spec=boardSpec(i.game,i.layout,i.labels,!i.style);"
    "$('title').textContent='arena play: '+i.title;\n"
    " document.title='arena play: '+i.game;$('game-style').textContent=i.style;"
    "$('learn').hidden=!i.learning;\n"
    " ['p1','p2'].forEach(function(id,s){i.players.forEach(function(p){$(id).appendChild("
    "el('option',{value:p},p));});});\n"
    " [1,2].forEach(function(s){$('d'+s).value=i.depth;$('d'+s).max=i.max_depth;});\n"
    " var q=new URLSearchParams(location.search);if(q.get('p1'))choose(1,q.get('p1'));\n"
    " choose(2,q.get('p2')||i.engines[0]||i.players[2]||i.players[0]);showWeights();newGame();\n"
    " setInterval(alive,i.poll_ms);}).catch(showError);\n"
    "})();\n"
    "</script>\n</body></html>\n";

import picomatch from "picomatch";
for (const p of process.argv.slice(2)) console.log(p.padEnd(22), picomatch.makeRe(p,{dot:true,windows:false}).source);

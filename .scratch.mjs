import mm from "micromatch";
const pats = ["//**","//*","//**/x","///**","/a//**","//","//a","/**//**","//{a,b}","/a//*","//?", "/{,a}//**", "//**/**", "/**/**//**","//@(a)"];
for (const p of pats) console.log(p, ["/","/a","/a/b","/x","/a/x"].filter(x=>mm.isMatch(x,p,{dot:true})));

-- The objects of the installed extension ulid, one line each: functions with their markings,
-- bodies, owners and comments; types with their storage; casts with their context; operators
-- with their planner properties; operator classes with their members. Two installs with the
-- same lines have the same SQL surface. Used by versions.sh and hostile_install.sh.
WITH ext AS (
    SELECT classid, objid FROM pg_depend
    WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
      AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid'))
SELECT 'function ' || p.oid::regprocedure || ' returns ' || p.prorettype::regtype
       || concat_ws(' ', '', p.prokind, p.provolatile, p.proparallel, p.proisstrict, p.proleakproof,
                    (SELECT lanname FROM pg_language WHERE oid = p.prolang), p.prosrc, p.probin,
                    p.pronamespace::regnamespace, p.proowner::regrole, p.proconfig,
                    (SELECT concat_ws(' ', aggtransfn, aggcombinefn, aggsortop::regoperator)
                     FROM pg_aggregate WHERE aggfnoid = p.oid),
                    obj_description(p.oid, 'pg_proc'))
FROM pg_proc p JOIN ext ON ext.classid = 'pg_proc'::regclass AND ext.objid = p.oid
UNION ALL
SELECT 'type ' || t.typname || concat_ws(' ', '', t.typlen, t.typbyval, t.typalign, t.typstorage, t.typcategory,
                                         t.typinput, t.typoutput, t.typreceive, t.typsend, t.typnamespace::regnamespace,
                                         t.typowner::regrole, obj_description(t.oid, 'pg_type'))
FROM pg_type t JOIN ext ON ext.classid = 'pg_type'::regclass AND ext.objid = t.oid
UNION ALL
SELECT 'cast ' || c.castsource::regtype || ' -> ' || c.casttarget::regtype
       || concat_ws(' ', '', c.castcontext, c.castmethod, c.castfunc::regprocedure)
FROM pg_cast c JOIN ext ON ext.classid = 'pg_cast'::regclass AND ext.objid = c.oid
UNION ALL
SELECT 'operator ' || o.oid::regoperator
       || concat_ws(' ', '', o.oprcode, o.oprcom::regoperator, o.oprnegate::regoperator, o.oprrest, o.oprjoin,
                    o.oprcanhash, o.oprcanmerge, o.oprowner::regrole)
FROM pg_operator o JOIN ext ON ext.classid = 'pg_operator'::regclass AND ext.objid = o.oid
UNION ALL
SELECT 'opclass ' || am.amname || ' ' || c.opcname
       || concat_ws(' ', '', c.opcdefault, c.opcintype::regtype, c.opckeytype::regtype, c.opcowner::regrole,
                    obj_description(c.oid, 'pg_opclass'),
                    (SELECT string_agg(a.amopstrategy || ':' || a.amopopr::regoperator, ',' ORDER BY a.amopstrategy)
                     FROM pg_amop a WHERE a.amopfamily = c.opcfamily),
                    (SELECT string_agg(a.amprocnum || ':' || a.amproc::regprocedure, ',' ORDER BY a.amprocnum)
                     FROM pg_amproc a WHERE a.amprocfamily = c.opcfamily))
FROM pg_opclass c JOIN pg_am am ON am.oid = c.opcmethod
JOIN ext ON ext.classid = 'pg_opclass'::regclass AND ext.objid = c.oid
ORDER BY 1

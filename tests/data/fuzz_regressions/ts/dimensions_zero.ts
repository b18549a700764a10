#hortfalse
@univariate true
@dimensions 0
@oblemNe
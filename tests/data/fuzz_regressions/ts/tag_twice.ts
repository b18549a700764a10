# Two short uni
@univariate false
@missing false
@univariate true
@roblemN±±
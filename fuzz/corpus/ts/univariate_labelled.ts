# Two short univariate cases, every tag given
@problemName Tiny
@timeStamps false
@missing false
@univariate true
@dimensions 1
@equalLength true
@seriesLength 4
@classLabel true up down
@data
1,2,3,4:up
4,3.5,-2e-1,1E3:down

@dimensions 2
@targetLabel false
@data
1,2:3,4
:5
